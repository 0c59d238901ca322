//! Every game that checked without a diagnostic, written into the output folder for the next build in another
//! process: a rebuild after one edit then compiles and counts the records of the games that changed only, as
//! the preview server does with the games it holds in memory. Each game is found by the same key as there (the
//! program, its rules and records with their paths, and the bibliography), so a game is taken only when
//! everything its check read is as it was.
//!
//! The file: a line naming the format, the hash of the program that wrote it (a file written by any other
//! build of ludotheca is not read at all, since the layout of what it holds may differ), the board diagrams,
//! each once, the rulesets' facts, each once, then the games, which name their diagrams and facts by number
//! (variants share facts, and a large catalog's games draw a few boards many times over), and last a hash of
//! everything before it (a damaged file is not read). It is written as it is made, never held whole: at 10,000
//! items it is megabytes.
//!
//! Each game's rules and records are written as bytes of their own ([`Body`]), beside the little that every
//! build reads of every game (its key, the works it cites, what its rules declare, for the boards' check, and
//! its [`GameSums`]). A rebuild reads the file whole but decodes a game's rules and records only when a page,
//! a data file's part or the writer of a new file asks for them: after the edit of one record, a game or two
//! of the catalog's thousands.
//!
//! [`GameSums`]: super::GameSums

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::Arc;

use ludotheca_engine::ruleset::Facts;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::archive::Diagram;
use crate::fingerprint::{self, Hash};

/// The file's first line.
const FORMAT: &[u8] = b"ludotheca checked games 3\n";

/// Each shared value's number in the file being written, by its address.
#[derive(Default)]
pub(crate) struct Numbers {
    pub diagrams: HashMap<*const Diagram, u32>,
    pub facts: HashMap<*const Facts, u32>,
}

/// The shared values of a file as read: what its games name by number.
pub(crate) struct Tables {
    diagrams: Vec<Arc<Diagram>>,
    facts: Vec<Arc<Facts>>,
}

/// The shared values of the file being written or read. Held by the thread doing it, for the serde functions
/// below, which have no other way to reach it.
pub(crate) enum Table {
    Writing(Numbers),
    Reading(Arc<Tables>),
}

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// Sets the thread's table for as long as it lives, and puts back the one it replaced when dropped (on an
/// error too): a game's body may be read while another table is in use on the same thread.
struct Using(Option<Table>);

impl Using {
    fn table(table: Table) -> Using {
        Using(TABLE.with(|t| t.borrow_mut().replace(table)))
    }
}

impl Drop for Using {
    fn drop(&mut self) {
        let before = self.0.take();
        TABLE.with(|t| *t.borrow_mut() = before);
    }
}

/// A value the file holds once, in a table of its own, and names by number wherever it is used.
pub(crate) trait Tabled: Sized {
    /// Its kind, for errors.
    const NAME: &'static str;
    fn number(numbers: &Numbers, value: &Arc<Self>) -> Option<u32>;
    fn numbered(table: &Table, number: usize) -> Option<Arc<Self>>;
}

impl Tabled for Diagram {
    const NAME: &'static str = "diagram";
    fn number(numbers: &Numbers, value: &Arc<Self>) -> Option<u32> {
        numbers.diagrams.get(&Arc::as_ptr(value)).copied()
    }
    fn numbered(table: &Table, number: usize) -> Option<Arc<Self>> {
        match table {
            Table::Reading(tables) => tables.diagrams.get(number).cloned(),
            Table::Writing(_) => None,
        }
    }
}

impl Tabled for Facts {
    const NAME: &'static str = "ruleset's facts";
    fn number(numbers: &Numbers, value: &Arc<Self>) -> Option<u32> {
        numbers.facts.get(&Arc::as_ptr(value)).copied()
    }
    fn numbered(table: &Table, number: usize) -> Option<Arc<Self>> {
        match table {
            Table::Reading(tables) => tables.facts.get(number).cloned(),
            Table::Writing(_) => None,
        }
    }
}

/// A shared value, written as its number in the file's table.
pub(crate) mod shared {
    use super::*;

    pub fn serialize<T: Tabled, S: Serializer>(value: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        let number = TABLE.with(|t| match t.borrow().as_ref() {
            Some(Table::Writing(numbers)) => T::number(numbers, value).ok_or_else(|| {
                serde::ser::Error::custom(format!("a {} missing from the table", T::NAME))
            }),
            _ => Err(serde::ser::Error::custom(format!(
                "a {} is written only into the file of checked games",
                T::NAME
            ))),
        })?;
        s.serialize_u32(number)
    }

    pub fn deserialize<'de, T: Tabled, D: Deserializer<'de>>(d: D) -> Result<Arc<T>, D::Error> {
        let number = u32::deserialize(d)? as usize;
        TABLE.with(|t| match t.borrow().as_ref() {
            Some(table @ Table::Reading(_)) => T::numbered(table, number)
                .ok_or_else(|| serde::de::Error::custom(format!("no {} of that number", T::NAME))),
            _ => Err(serde::de::Error::custom(format!(
                "a {} is read only from the file of checked games",
                T::NAME
            ))),
        })
    }
}

/// A shared value written as its number ([`shared`]), for the containers below.
struct Number<'a, T: Tabled>(&'a Arc<T>);

impl<T: Tabled> Serialize for Number<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        shared::serialize(self.0, s)
    }
}

/// [`Number`] as read back.
struct Numbered<T: Tabled>(Arc<T>);

impl<'de, T: Tabled> Deserialize<'de> for Numbered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        shared::deserialize(d).map(Numbered)
    }
}

/// [`shared`], for a value that may be absent.
pub(crate) mod maybe_shared {
    use super::*;

    pub fn serialize<T: Tabled, S: Serializer>(
        value: &Option<Arc<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        value.as_ref().map(Number).serialize(s)
    }

    pub fn deserialize<'de, T: Tabled, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Arc<T>>, D::Error> {
        Ok(Option::<Numbered<T>>::deserialize(d)?.map(|n| n.0))
    }
}

/// [`shared`], for a list.
pub(crate) mod shared_list {
    use super::*;

    pub fn serialize<T: Tabled, S: Serializer>(values: &[Arc<T>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(values.iter().map(Number))
    }

    pub fn deserialize<'de, T: Tabled, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Arc<T>>, D::Error> {
        Ok(Vec::<Numbered<T>>::deserialize(d)?
            .into_iter()
            .map(|n| n.0)
            .collect())
    }
}

/// A value written as bytes of its own, within the file's table: read back only when asked for
/// ([`Body::read`]).
pub(crate) struct BodyRef<'a, T>(pub &'a T);

impl<T: Serialize> Serialize for BodyRef<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Made on this thread, whose table numbers the shared values it holds.
        let bytes = postcard::to_stdvec(self.0).map_err(serde::ser::Error::custom)?;
        s.serialize_bytes(&bytes)
    }
}

/// Where [`BodyRef`] wrote a value in a file read back, and what reading it needs: the file's bytes and its
/// table.
pub(crate) struct Body {
    file: Arc<Vec<u8>>,
    at: std::ops::Range<usize>,
    tables: Arc<Tables>,
}

impl Body {
    /// The value written there. The file was sealed by this very program, so it reads back unless the
    /// program is wrong: none then.
    pub fn read<T: for<'de> Deserialize<'de>>(&self) -> Option<T> {
        let _using = Using::table(Table::Reading(Arc::clone(&self.tables)));
        postcard::from_bytes(self.file.get(self.at.clone())?).ok()
    }
}

/// Writes `games`, which draw `diagrams` and state `facts` (each once), every diagram and facts they hold named
/// by its number there (`numbers`, by address), sealed as `fingerprint::seal` seals a file, but streaming: the
/// file is large. The caller gives the games in a fixed order, so the same games give the same bytes.
pub(crate) fn write<T: Serialize>(
    out: &mut dyn Write,
    (diagrams, facts): (&[&Diagram], &[&Facts]),
    numbers: Numbers,
    games: &[T],
) -> io::Result<()> {
    fingerprint::seal_into(out, FORMAT, |summed| {
        // Buffered before the hash: the serializer writes a field at a time.
        let mut out = io::BufWriter::with_capacity(1 << 16, summed);
        postcard::to_io(diagrams, &mut out).map_err(io::Error::other)?;
        postcard::to_io(facts, &mut out).map_err(io::Error::other)?;
        let using = Using::table(Table::Writing(numbers));
        postcard::to_io(games, &mut out).map_err(io::Error::other)?;
        drop(using);
        out.flush()
    })
}

/// A file of games as read back, sealed by this program: its table, and its games to decode ([`File::games`]).
pub(crate) struct File {
    bytes: Arc<Vec<u8>>,
    /// Where the games lie in `bytes`.
    games: std::ops::Range<usize>,
    tables: Arc<Tables>,
}

impl File {
    /// The file `bytes`; none when it was written by another program or is damaged.
    pub fn open(bytes: Vec<u8>) -> Option<File> {
        let rest = fingerprint::unseal(FORMAT, &bytes)?;
        let (diagrams, rest) = postcard::take_from_bytes::<Vec<Diagram>>(rest).ok()?;
        let (facts, games) = postcard::take_from_bytes::<Vec<Facts>>(rest).ok()?;
        let from = games.as_ptr() as usize - bytes.as_ptr() as usize;
        let games = from..from + games.len();
        Some(File {
            tables: Arc::new(Tables {
                diagrams: diagrams.into_iter().map(Arc::new).collect(),
                facts: facts.into_iter().map(Arc::new).collect(),
            }),
            bytes: Arc::new(bytes),
            games,
        })
    }

    /// The games, each borrowing its body from the file (see [`File::body`]); none when they do not read.
    pub fn games<'a, T: Deserialize<'a>>(&'a self) -> Option<Vec<T>> {
        let _using = Using::table(Table::Reading(Arc::clone(&self.tables)));
        postcard::from_bytes(&self.bytes[self.games.clone()]).ok()
    }

    /// The body `bytes`, borrowed from this file by a game [`File::games`] read, to be read when asked for.
    pub fn body(&self, bytes: &[u8]) -> Body {
        let from = (bytes.as_ptr() as usize).wrapping_sub(self.bytes.as_ptr() as usize);
        Body {
            file: Arc::clone(&self.bytes),
            // Out of the file's bounds for bytes from elsewhere, which then read back as nothing.
            at: from..from.saturating_add(bytes.len()),
            tables: Arc::clone(&self.tables),
        }
    }
}

/// A hash of which games a file would hold: the same hash, the same file.
pub fn digest<'a>(keys: impl IntoIterator<Item = &'a Hash>) -> Hash {
    fingerprint::bytes(&fingerprint::program(), keys.into_iter().map(|k| &k[..]))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::check::{GameCache, check_with};
    use crate::diagnostic::Diagnostics;

    /// The shipped catalog checked with `games` as the previous run's: the games as checked, and how many
    /// were taken.
    fn check(games: &mut GameCache) -> crate::check::Checked {
        check_at(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog"),
            games,
        )
    }

    /// [`check`], of the catalog at `root`.
    fn check_at(root: &Path, games: &mut GameCache) -> crate::check::Checked {
        let mut diagnostics = Diagnostics::new();
        let catalog = crate::catalog::load(root, &mut diagnostics).unwrap();
        let checked = check_with(
            catalog,
            &mut diagnostics,
            &crate::check::FoundClean::default(),
            games,
            &mut crate::check::ImageCache::default(),
            None,
        );
        assert!(!diagnostics.has_errors());
        checked
    }

    fn written(games: &GameCache) -> Vec<u8> {
        let mut bytes = Vec::new();
        games.write(&mut bytes).unwrap();
        bytes
    }

    /// Everything a page takes from a game, in words, to compare games checked and games read back.
    fn described(checked: &crate::check::Checked) -> Vec<String> {
        (0..checked.catalog.items.len())
            .filter_map(|i| checked.held_game(i))
            .map(|held| {
                let sums = &held.sums;
                let citations: Vec<String> = sums
                    .citations
                    .iter()
                    .map(|c| format!("{} {:?} {}", c.source, c.pages, c.title))
                    .collect();
                let game = held.get();
                let rulesets: Vec<String> = game
                    .rules
                    .rulesets
                    .iter()
                    .map(|r| format!("{} {:?} {:?} {:?}", r.title, r.source, r.facts, r.diagram))
                    .collect();
                let records: Vec<String> = game
                    .records
                    .iter()
                    .flatten()
                    .map(|r| {
                        let tags: Vec<(&str, &str)> = r.tags().collect();
                        let start = r.start.as_ref().map(|s| (&*s.diagram, s.to_move));
                        format!("{tags:?} {} {start:?}", r.move_count)
                    })
                    .collect();
                format!(
                    "{rulesets:?} {records:?} {:?} {} {:?} {citations:?} {:?}",
                    held.key, held.clean, sums.family, sums.diagrams
                )
            })
            .collect()
    }

    #[test]
    fn games_read_back_are_the_games_written_and_are_taken_without_a_check() {
        let mut games = GameCache::default();
        let first = check(&mut games);
        let (taken, all) = games.taken();
        assert_eq!(taken, 0);
        assert!(all >= 8, "every shipped game is checked: {all}");
        let bytes = written(&games);

        let mut read = GameCache::from_bytes(bytes.clone());
        assert_eq!(read.taken().1, all, "every game checked cleanly is kept");
        let second = check(&mut read);
        assert_eq!(
            read.taken(),
            (all, all),
            "every game is taken as it was checked"
        );
        // Taken, not read: a game's rules and records are read when first asked for, and read back as they
        // were checked.
        assert_eq!(second.games_read(), (0, all));
        assert_eq!(described(&second), described(&first));
        assert_eq!(second.games_read(), (all, all));
        // Written again, the games read back give the same bytes, their shared diagrams written once.
        assert!(written(&read) == bytes);
        assert_eq!(read.digest(), games.digest());
    }

    #[test]
    fn equal_facts_are_written_once_and_read_back_as_one() {
        // The shipped catalog with a second game on Bagh-Chal's rules: its ruleset states the same facts.
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let root = scratch.path().join("catalog");
        crate::catalog::copy_shipped(&root);
        let copy = root.join("games/bagh-chal-copy");
        std::fs::create_dir(&copy).unwrap();
        for name in ["record.xml", "rules.txt"] {
            std::fs::copy(root.join("games/bagh-chal").join(name), copy.join(name)).unwrap();
        }
        let facts_of = |checked: &crate::check::Checked| {
            let mut facts = Vec::new();
            for i in 0..checked.catalog.items.len() {
                let Some(game) = checked.held_game(i).map(crate::check::HeldGame::get) else {
                    continue;
                };
                let id = &checked.catalog.items[i].id;
                if id == "bagh-chal" || id == "bagh-chal-copy" {
                    facts.extend(game.rules.rulesets.iter().filter_map(|r| r.facts.clone()));
                }
            }
            facts
        };
        let mut games = GameCache::default();
        let first = check_at(&root, &mut games);
        let checked = facts_of(&first);
        assert_eq!(checked.len(), 2);
        assert_eq!(checked[0], checked[1]);
        let bytes = written(&games);
        let mut read = GameCache::from_bytes(bytes.clone());
        let second = check_at(&root, &mut read);
        let read_back = facts_of(&second);
        assert_eq!(read_back, checked);
        assert!(std::sync::Arc::ptr_eq(&read_back[0], &read_back[1]));
        // Once in the file: the second game adds no statement of its captures to the shipped catalog's file.
        let mut shipped_games = GameCache::default();
        check(&mut shipped_games);
        let said = checked[0]
            .capture_rules
            .first()
            .expect("Bagh-Chal captures");
        let times = |bytes: &[u8]| {
            bytes
                .windows(said.len())
                .filter(|w| *w == said.as_bytes())
                .count()
        };
        assert_eq!(times(&bytes), times(&written(&shipped_games)), "{said}");
    }

    #[test]
    fn a_damaged_or_foreign_file_gives_no_games() {
        let mut games = GameCache::default();
        check(&mut games);
        let bytes = written(&games);
        assert!(!GameCache::from_bytes(bytes.clone()).is_empty());
        // Any byte changed, and the file is not read.
        for at in [0, super::FORMAT.len() + 3, bytes.len() / 2, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert!(GameCache::from_bytes(damaged).is_empty(), "byte {at}");
        }
        // Cut short, or not such a file at all.
        assert!(GameCache::from_bytes(bytes[..bytes.len() / 2].to_vec()).is_empty());
        assert!(GameCache::from_bytes(Vec::new()).is_empty());
        assert!(GameCache::from_bytes(b"ludotheca-manifest 1\n".to_vec()).is_empty());
        // Written by another program: its hash differs, so its games are not read even though the rest is
        // whole (the checksum at the end is made right again).
        let mut foreign = bytes[..bytes.len() - 16].to_vec();
        foreign[super::FORMAT.len()] ^= 1;
        let sum = crate::fingerprint::digest(&foreign);
        foreign.extend_from_slice(&sum);
        assert!(GameCache::from_bytes(foreign).is_empty());
    }

    #[test]
    fn a_game_read_while_a_file_is_written_leaves_the_writers_table_in_place() {
        let mut games = GameCache::default();
        check(&mut games);
        let mut read = GameCache::from_bytes(written(&games));
        let checked = check(&mut read);
        let held = (0..checked.catalog.items.len())
            .find_map(|i| checked.held_game(i))
            .unwrap();
        assert!(!held.is_read());
        let writing = super::Using::table(super::Table::Writing(super::Numbers::default()));
        assert!(!held.get().rules.rulesets.is_empty());
        let in_use =
            super::TABLE.with(|t| matches!(t.borrow().as_ref(), Some(super::Table::Writing(_))));
        assert!(in_use, "the writer's table was replaced");
        drop(writing);
        assert!(super::TABLE.with(|t| t.borrow().is_none()));
    }

    #[test]
    fn a_diagram_is_written_only_through_the_file_of_checked_games() {
        let mut games = GameCache::default();
        let checked = check(&mut games);
        let game = (0..checked.catalog.items.len())
            .find_map(|i| checked.held_game(i).map(crate::check::HeldGame::get))
            .unwrap();
        // Outside the file there is no table to number diagrams by: an error, not a wrong number.
        assert!(postcard::to_stdvec(&game.rules).is_err());
    }
}
