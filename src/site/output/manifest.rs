//! A site's manifest as a build holds it: its files by path, each with what [`Recorded`] says of it.
//!
//! A rebuild reads two manifests, the live site's and the standby's, 30,000 lines each at 10,000 items, and
//! the two are nearly always the same but for a handful of lines: the standby is the site the last build
//! replaced, and every file that build did not change is one file in both, a hard link with the same size,
//! time and inode. So the standby's is read beside the live site's, line against line, and held as the lines
//! it has of its own over the live site's map, rather than parsed and hashed into a second map of its own.

use std::sync::Arc;

use rayon::prelude::*;

use super::{Listed, Recorded, cut, manifest_line};

/// A manifest's files by path: a map of its own, or the lines it does not share with another manifest over
/// that manifest's map.
#[derive(Clone, Debug, Default)]
pub struct Manifest {
    /// Its lines, or when it shares lines with `base`, those it has that `base` lacks or holds otherwise.
    own: Arc<Listed>,
    base: Option<Base>,
    len: usize,
}

/// The manifest another shares its lines with, and the paths of it that the other does not have.
#[derive(Clone, Debug)]
struct Base {
    listed: Arc<Listed>,
    lacks: Arc<foldhash::HashSet<String>>,
}

impl Manifest {
    /// A manifest of these files alone.
    pub fn whole(listed: Listed) -> Manifest {
        Manifest {
            len: listed.len(),
            own: Arc::new(listed),
            base: None,
        }
    }

    /// What the manifest says of the file at `path`.
    pub fn get(&self, path: &str) -> Option<&Recorded> {
        self.find(path, |base| base.listed.get(path))
    }

    /// [`Manifest::get`], told that `beside` says `there` of `path`: when this manifest takes the path's line
    /// from `beside`'s map, `there` is the answer, and the map is not looked up again. A rebuild asks both the
    /// live site's manifest and the standby's (read beside it) of nearly every one of its 30,000 files, and
    /// each lookup in a map that large waits on memory.
    pub fn get_beside<'a>(
        &'a self,
        path: &str,
        beside: &Manifest,
        there: Option<&'a Recorded>,
    ) -> Option<&'a Recorded> {
        self.find(path, |base| {
            if beside.base.is_none() && Arc::ptr_eq(&base.listed, &beside.own) {
                there
            } else {
                base.listed.get(path)
            }
        })
    }

    /// Its own line for `path`; none when it lacks the path where its base has one; else what `shared` finds.
    fn find<'a>(
        &'a self,
        path: &str,
        shared: impl FnOnce(&'a Base) -> Option<&'a Recorded>,
    ) -> Option<&'a Recorded> {
        if !self.own.is_empty()
            && let Some(recorded) = self.own.get(path)
        {
            return Some(recorded);
        }
        let base = self.base.as_ref()?;
        if !base.lacks.is_empty() && base.lacks.contains(path) {
            return None;
        }
        shared(base)
    }

    pub fn contains_key(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every path it lists, each once, in no particular order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        let shared = self.base.iter().flat_map(move |base| {
            base.listed.keys().filter(move |path| {
                !self.own.contains_key(path.as_str()) && !base.lacks.contains(path.as_str())
            })
        });
        self.own.keys().chain(shared)
    }

    /// [`Manifest::keys`] with what it says of each, on every core.
    pub fn par_iter(&self) -> impl ParallelIterator<Item = (&String, &Recorded)> {
        let shared = self.base.as_ref().map(move |base| {
            base.listed.par_iter().filter(move |(path, _)| {
                !self.own.contains_key(path.as_str()) && !base.lacks.contains(path.as_str())
            })
        });
        self.own.par_iter().chain(shared.into_par_iter().flatten())
    }

    /// Whether the two are one manifest read once, not two alike.
    #[cfg(test)]
    pub fn is(&self, other: &Manifest) -> bool {
        Arc::ptr_eq(&self.own, &other.own)
    }

    /// Forget the file at `path`.
    pub fn remove(&mut self, path: &str) {
        if !self.contains_key(path) {
            return;
        }
        if self.own.contains_key(path) {
            Arc::make_mut(&mut self.own).remove(path);
        }
        if let Some(base) = &mut self.base
            && base.listed.contains_key(path)
        {
            Arc::make_mut(&mut base.lacks).insert(path.to_string());
        }
        self.len -= 1;
    }

    /// The manifest whose lines (after its first) are `body`, read beside `base`, a manifest held whole whose
    /// lines are `base_body`: the lines the two have alike are taken from `base`'s map, and only the others are
    /// parsed. Both are written in the order of their paths, so they are walked side by side; should either
    /// not be (a file another program wrote, or damaged), `body` is parsed whole, so that what is read is
    /// always what parsing it alone would give.
    pub fn beside(body: &str, base: &Manifest, base_body: &str) -> Manifest {
        match base.base {
            None => side_by_side(body, &base.own, base_body),
            Some(_) => None,
        }
        .unwrap_or_else(|| Manifest::whole(super::parse_lines(body)))
    }
}

/// [`Manifest::beside`]; none when the lines of either are not in the order of their paths, or one has no path.
fn side_by_side(body: &str, base: &Arc<Listed>, base_body: &str) -> Option<Manifest> {
    let mut own = Listed::default();
    let mut lacks = foldhash::HashSet::default();
    // The files of `base` whose lines this manifest does not share: looked up in its map only for these, the
    // few, rather than for every line shared.
    let mut unshared = 0;
    let (mut ours, mut theirs) = (Lines::new(body), Lines::new(base_body));
    let (mut line, mut other) = (ours.next()?, theirs.next()?);
    loop {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let order = match (line, other) {
            (None, None) => break,
            (Some(_), None) => Less,
            (None, Some(_)) => Greater,
            // The same line: parsed alike, so what `base` holds of it is right.
            (Some(our), Some(their)) if our.text == their.text => {
                (line, other) = (ours.next()?, theirs.next()?);
                continue;
            }
            (Some(our), Some(their)) => our.path.cmp(their.path),
        };
        if let (Less | Equal, Some(our)) = (order, line) {
            // A file `base` does not list, or lists otherwise.
            match manifest_line(our.text) {
                Some((path, recorded)) => {
                    own.insert(path, recorded);
                }
                None => {
                    lacks.insert(our.path.to_string());
                }
            }
            line = ours.next()?;
        }
        if let (Greater | Equal, Some(their)) = (order, other) {
            // A file only `base` lists (or that this manifest's line, unlike `base`'s, does not say).
            if order == Greater {
                lacks.insert(their.path.to_string());
            }
            unshared += usize::from(base.contains_key(their.path));
            other = theirs.next()?;
        }
    }
    Some(Manifest {
        len: own.len() + base.len() - unshared,
        own: Arc::new(own),
        base: Some(Base {
            listed: Arc::clone(base),
            lacks: Arc::new(lacks),
        }),
    })
}

/// One line of a manifest, and the path it names.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    path: &'a str,
}

/// A manifest's lines, each with its path, as long as the paths come in increasing order.
struct Lines<'a> {
    lines: std::str::Lines<'a>,
    last: Option<&'a str>,
}

impl<'a> Lines<'a> {
    fn new(body: &'a str) -> Lines<'a> {
        Lines {
            lines: body.lines(),
            last: None,
        }
    }

    /// The next line (none at the end); `None` when it names no path, or a path not after the last one.
    fn next(&mut self) -> Option<Option<Line<'a>>> {
        let Some(text) = self.lines.next() else {
            return Some(None);
        };
        let path = path_of(text)?;
        if self.last.is_some_and(|last| last >= path) {
            return None;
        }
        self.last = Some(path);
        Some(Some(Line { text, path }))
    }
}

/// The path a manifest line names, cut where [`manifest_line`] cuts it, its hashes left unread.
fn path_of(line: &str) -> Option<&str> {
    let rest = line.get(super::DIGEST_HEX..)?.strip_prefix(' ')?;
    let rest = match rest.as_bytes().first()? {
        b'-' => rest.get(1..)?,
        _ => rest.get(super::INPUTS_HEX..)?,
    };
    let rest = rest.strip_prefix(' ')?;
    Some(cut(rest, b' ')?.1)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::super::{Seen, digest, hash_bytes, parse_lines, push_manifest_line};
    use super::*;

    /// What a test says of a file: a seed its hashes and look are made from, and whether it has inputs and a
    /// look.
    type Said = (u8, bool, bool);

    fn recorded((seed, inputs, seen): Said) -> Recorded {
        Recorded {
            bytes: digest(&[seed]),
            inputs: inputs.then(|| hash_bytes(&[seed])),
            seen: seen.then_some(Seen {
                len: u64::from(seed),
                modified: -i64::from(seed),
                inode: u64::from(seed) * 7,
            }),
        }
    }

    fn line(path: &str, said: Said) -> String {
        let mut line = String::new();
        push_manifest_line(&mut line, path, &recorded(said));
        line
    }

    /// `read` (read beside `beside`) lists what `parsed` does, asked every way, also once `path` is removed;
    /// and asked beside `beside`, or beside a copy of it that no longer has `path`, it says the same.
    fn same_files(mut read: Manifest, mut parsed: Listed, path: &str, beside: &Manifest) {
        let mut changed = beside.clone();
        changed.remove(path);
        for _ in 0..2 {
            assert_eq!(read.len(), parsed.len());
            assert_eq!(read.is_empty(), parsed.is_empty());
            for (path, recorded) in &parsed {
                assert_eq!(read.get(path), Some(recorded), "{path}");
            }
            let asked = parsed.keys().chain(beside.keys()).map(String::as_str);
            for asked in asked.chain([path, "no such file"]) {
                for beside in [beside, &changed] {
                    let there = beside.get(asked);
                    assert_eq!(
                        read.get_beside(asked, beside, there),
                        parsed.get(asked),
                        "{asked}"
                    );
                }
            }
            let mut keys: Vec<&String> = read.keys().collect();
            keys.sort();
            let mut expected: Vec<&String> = parsed.keys().collect();
            expected.sort();
            assert_eq!(keys, expected);
            let mut all: Vec<(&String, &Recorded)> = read.par_iter().collect();
            all.sort_by_key(|(path, _)| *path);
            let mut expected: Vec<(&String, &Recorded)> = parsed.iter().collect();
            expected.sort_by_key(|(path, _)| *path);
            assert_eq!(all, expected);
            read.remove(path);
            parsed.remove(path);
        }
        assert!(!read.contains_key(path));
    }

    proptest! {
        /// Read beside another manifest, a manifest lists exactly what parsing it alone gives: whatever lines
        /// the two share, change, leave out or add, with lines that do not parse, and with lines out of order.
        #[test]
        fn a_manifest_read_beside_another_is_the_manifest_parsed_alone(
            base in prop::collection::btree_map("[abé]{1,2}( c)?(/index\\.html)?", any::<Said>(), 0..10),
            changes in prop::collection::vec(0..5u8, 10),
            added in prop::collection::btree_map("[abcé]{1,3}", any::<Said>(), 0..4),
            reversed in any::<bool>(),
            blank in any::<bool>(),
            forgotten in "[abc]{1,2}",
        ) {
            let base_body: String = base.iter().map(|(path, said)| line(path, *said)).collect();
            let mut ours: BTreeMap<&str, String> = BTreeMap::new();
            for ((path, said), change) in base.iter().zip(changes.iter().chain(std::iter::repeat(&0))) {
                let (seed, inputs, seen) = *said;
                match change {
                    0 => {
                        ours.insert(path, line(path, *said));
                    }
                    1 => {
                        ours.insert(path, line(path, (seed.wrapping_add(1), inputs, seen)));
                    }
                    2 => {
                        ours.insert(path, line(path, (seed, !inputs, !seen)));
                    }
                    // A line whose digest is not hex: its file is not listed.
                    3 => {
                        ours.insert(path, format!("z{}", &line(path, *said)[1..]));
                    }
                    _ => {}
                }
            }
            for (path, said) in &added {
                ours.entry(path).or_insert_with(|| line(path, *said));
            }
            let mut lines: Vec<&String> = ours.values().collect();
            if reversed {
                lines.reverse();
            }
            let mut body: String = lines.into_iter().map(String::as_str).collect();
            if blank {
                let mut at = body.len() / 2;
                while !body.is_char_boundary(at) {
                    at -= 1;
                }
                body.insert(at, '\n');
            }
            let whole = Manifest::whole(parse_lines(&base_body));
            let read = Manifest::beside(&body, &whole, &base_body);
            same_files(read, parse_lines(&body), &forgotten, &whole);
        }
    }

    /// The standby's manifest, which differs from the live site's in a few lines, holds only those of its own.
    #[test]
    fn a_manifest_read_beside_a_like_one_holds_only_the_lines_that_differ() {
        let live: BTreeMap<String, Said> = (0..200u8)
            .map(|n| (format!("games/g{n:03}/index.html"), (n, n % 2 == 0, true)))
            .collect();
        let live_body: String = live.iter().map(|(path, said)| line(path, *said)).collect();
        let mut standby = live.clone();
        standby.insert("games/g007/index.html".into(), (1, false, false));
        standby.remove("games/g100/index.html");
        standby.insert("games/g100a/index.html".into(), (2, true, true));
        let body: String = standby
            .iter()
            .map(|(path, said)| line(path, *said))
            .collect();

        let whole = Manifest::whole(parse_lines(&live_body));
        let read = Manifest::beside(&body, &whole, &live_body);
        assert_eq!(read.own.len(), 2);
        let base = read.base.as_ref().expect("read beside the live site's");
        assert!(Arc::ptr_eq(&base.listed, &whole.own));
        assert_eq!(base.lacks.len(), 1);
        same_files(read, parse_lines(&body), "games/g050/index.html", &whole);

        // Out of order, it is parsed alone.
        let backwards: String = standby
            .iter()
            .rev()
            .map(|(path, said)| line(path, *said))
            .collect();
        let read = Manifest::beside(&backwards, &whole, &live_body);
        assert!(read.base.is_none());
        same_files(
            read,
            parse_lines(&backwards),
            "games/g050/index.html",
            &whole,
        );
    }
}
