//! Move notation, after the seed's Tchouba puzzle solutions: `21`, `21!`, `28(x2+pit8&9)`, `9(x1+pit29)`.
//!
//! A move is the starting hole in the mover's numbering. A capturing move adds `(x<c>+pit<a>&<b>...)`: `c` is
//! how many holes of the attacked file were taken (1: the inner hole alone, its outer hole being empty or not
//! taken; 2: inner and outer), and `a`, `b`... are the extra holes chosen, in the opponent's numbering. When no
//! extra hole could be taken, the annotation is just `(x<c>)`. Trailing `!` and `?` are commentary and ignored.
//! The parser reads `c` but does not insist on it (see `docs/sowing.md`); a bare hole number is accepted for a
//! capturing move only when there is nothing to choose.

use super::{MAX_EXTRA_HOLES, MAX_TRACK, SowingEnding, SowingGame, SowingMove, SowingPosition};
use crate::game::{Game, MoveError};

/// The canonical text of `mv` in `pos`: the hole, then the capture annotation when the move captures.
pub(super) fn format_move(game: &SowingGame, pos: &SowingPosition, mv: &SowingMove) -> String {
    let mut text = mv.hole().to_string();
    if let Some((_, count)) = game.file_holes_taken(pos, usize::from(mv.hole) % game.len) {
        text.push_str(&format!("(x{count}"));
        for (j, h) in mv.extra_holes().enumerate() {
            text.push_str(if j == 0 { "+pit" } else { "&" });
            text.push_str(&h.to_string());
        }
        text.push(')');
    }
    text
}

/// A move as written, before it is checked against a position.
#[derive(Debug, PartialEq, Eq)]
struct Written {
    hole: u32,
    /// `(count, extra holes)` when a capture annotation was written.
    capture: Option<(u32, Vec<u32>)>,
}

/// A cursor over the move text, for the small hand-written parser (the grammar has five tokens; a parser
/// library would cost more than it saves, and the engine takes no dependencies).
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek().is_some_and(|p| p.eq_ignore_ascii_case(&c)) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }
    fn eat_word(&mut self, word: &str) -> bool {
        let rest = &self.text[self.at..];
        if rest.len() >= word.len()
            && rest.is_char_boundary(word.len())
            && rest[..word.len()].eq_ignore_ascii_case(word)
        {
            self.at += word.len();
            true
        } else {
            false
        }
    }
    fn number(&mut self, what: &str) -> Result<u32, MoveError> {
        let rest = &self.text[self.at..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(self.error(&format!("expected {what}")));
        }
        let value = rest[..digits]
            .parse::<u32>()
            .map_err(|_| self.error(&format!("{what} is too large")))?;
        self.at += digits;
        Ok(value)
    }
    fn error(&self, what: &str) -> MoveError {
        let found = match self.peek() {
            Some(c) => format!("'{c}'"),
            None => "the end".to_string(),
        };
        MoveError::Syntax(format!(
            "{what} at column {} of \"{}\", found {found}; moves look like 21 or 28(x2+pit8&9)",
            self.at + 1,
            self.text
        ))
    }
}

/// Reads the text of one move without looking at a position.
fn read(text: &str) -> Result<Written, MoveError> {
    // Commentary marks belong to the annotator, not the move: `21!`, `23?`, `28(x2+pit8&9)!?`.
    let text = text.trim().trim_end_matches(['!', '?']);
    let mut c = Cursor { text, at: 0 };
    let hole = c.number("a hole number")?;
    let mut capture = None;
    if c.eat('(') {
        if !c.eat('x') {
            return Err(c.error("expected 'x' and the count of file holes captured"));
        }
        let count = c.number("the count of file holes captured")?;
        let mut extras = Vec::new();
        if c.eat('+') {
            // `pit` before each number; the seed writes it only before the first, we accept it before any.
            c.eat_word("pit");
            extras.push(c.number("an extra hole number")?);
            while c.eat('&') {
                c.eat_word("pit");
                extras.push(c.number("an extra hole number")?);
            }
        }
        if !c.eat(')') {
            return Err(c.error("expected ')' or '&' and another hole"));
        }
        capture = Some((count, extras));
    }
    if c.at != text.len() {
        return Err(c.error("unexpected text after the move"));
    }
    Ok(Written { hole, capture })
}

/// The mover's track after a move's sowing, and how the sowing ended (see `SowingGame::sown`).
type Sown = ([u16; MAX_TRACK], SowingEnding);

/// Parses one move and checks it in `pos` without listing the legal moves: the hole must be one that may start
/// a turn, the sowing from it is played out once to see whether it captures, and the extra holes named must be
/// a choice the capture offers. The errors are those of finding the move in the list, example included. With
/// the move comes its sowing, which playing it need not make again.
pub(super) fn parse_move(
    game: &SowingGame,
    pos: &SowingPosition,
    text: &str,
) -> Result<(SowingMove, Sown), MoveError> {
    let written = read(text)?;
    let per_side = game.len as u32;
    let hole = written.hole;
    if hole == 0 || hole > per_side {
        return Err(MoveError::Illegal(format!(
            "there is no hole {hole}: each side's holes are numbered 1 to {per_side}"
        )));
    }
    let me = usize::from(pos.side & 1);
    let index = (hole - 1) as usize;
    if pos.lap_capped || pos.ply >= game.rules.move_cap {
        return Err(game_over(game, pos, text));
    }
    // A hole holding enough seeds to start a turn always may; a lone seed may when the singleton rule lets it
    // (the next hole empty, and no hole holding enough to start). So a recorded move is settled by its own
    // hole and, for a lone seed, one look over the track; the whole mask is worked out only to say why not.
    let track = &pos.board[me];
    let min = game.rules.min_seeds_to_start;
    let may_start = track[index] >= min
        || (game.rules.singleton_rule
            && track[index] == 1
            && track[(index + 1) % game.len] == 0
            && game.hole_set(track, |s| s >= min) == 0);
    if !may_start {
        let starts = game.start_mask(track);
        if starts == 0 {
            return Err(game_over(game, pos, text));
        }
        if starts & (1u128 << index) == 0 {
            return Err(MoveError::Illegal(why_hole_cannot_start(game, pos, hole)));
        }
    }
    let bare = SowingMove {
        hole: index as u8,
        extras: [0; MAX_EXTRA_HOLES as usize],
        extra_count: 0,
    };
    let sown = game.sown(pos, index);
    let Some(fc) = game.file_capture(&sown.1, &pos.board[1 - me][..game.len]) else {
        return match written.capture {
            None => Ok((bare, sown)),
            Some(_) => Err(MoveError::Illegal(format!(
                "{hole} captures nothing here: write it as {hole}"
            ))),
        };
    };
    // The holes the mover may choose from: the opponent's non-empty holes outside the captured file, in track
    // order, and how many to choose, as the move list orders its choices (the first lists the first holes).
    let outer = fc.outer.unwrap_or(usize::MAX);
    // At most a side's holes: held on the stack, as every capture of a record reads them.
    let mut held = [0u8; MAX_TRACK];
    let mut count = 0;
    for (h, &seeds) in pos.board[1 - me][..game.len].iter().enumerate() {
        if seeds > 0 && h != fc.inner && h != outer {
            held[count] = h as u8;
            count += 1;
        }
    }
    let candidates = &held[..count];
    let k = usize::from(fc.extras).min(candidates.len());
    let mut first = bare;
    first.extra_count = k as u8;
    first.extras[..k].copy_from_slice(&candidates[..k]);
    match written.capture {
        None => {
            if k == 0 || k == candidates.len() {
                // Nothing to choose, so the bare hole names the move without doubt.
                Ok((first, sown))
            } else {
                Err(MoveError::Illegal(format!(
                    "{hole} captures and the extra holes are the mover's choice: name them, e.g. {}",
                    format_move(game, pos, &first)
                )))
            }
        }
        Some((_count, extras)) => {
            // The count is redundant (the position fixes which file holes fall) and our reading of it is not
            // provable from the seed, so a different count is tolerated; the printer writes our reading.
            let mut wanted: Vec<u32> = extras;
            wanted.sort_unstable();
            if wanted.windows(2).any(|w| w[0] == w[1]) {
                return Err(MoveError::Illegal(format!(
                    "{text}: an extra hole is named twice"
                )));
            }
            let chosen = wanted.len() == k
                && wanted.iter().all(|&w| {
                    w >= 1
                        && u8::try_from(w - 1).is_ok_and(|h| candidates.binary_search(&h).is_ok())
                });
            if chosen {
                let mut mv = first;
                for (slot, &w) in mv.extras.iter_mut().zip(&wanted) {
                    *slot = (w - 1) as u8;
                }
                Ok((mv, sown))
            } else {
                Err(MoveError::Illegal(format!(
                    "{text}: the capture takes {k} extra hole(s) of the opponent's, chosen among \
                     their non-empty holes outside the captured file (at most {MAX_EXTRA_HOLES}); \
                     for example {}",
                    format_move(game, pos, &first)
                )))
            }
        }
    }
}

/// The error for a move written after the game has ended.
fn game_over(game: &SowingGame, pos: &SowingPosition, text: &str) -> MoveError {
    MoveError::Illegal(format!(
        "{text}: the game is over ({:?})",
        game.outcome(pos)
    ))
}

/// Explains why `hole` cannot start a turn, for the error message.
fn why_hole_cannot_start(game: &SowingGame, pos: &SowingPosition, hole: u32) -> String {
    let seeds = pos.seeds(pos.side, hole as u16);
    let min = game.rules.min_seeds_to_start;
    if seeds == 0 {
        format!("hole {hole} is empty")
    } else if seeds >= min {
        // Unreachable while legal_moves admits every hole with enough seeds; kept so the message stays honest.
        format!("hole {hole} cannot start a turn here")
    } else if !game.rules.singleton_rule {
        format!("hole {hole} holds {seeds} seed(s): a turn needs at least {min}")
    } else if game.has_gula(&pos.board[usize::from(pos.side)][..game.len]) {
        format!(
            "hole {hole} holds a single seed, which may move only when no hole holds {min} or more"
        )
    } else {
        format!("hole {hole} holds a single seed and the next hole is occupied: it may not move")
    }
}

impl SowingGame {
    /// Parses a line of moves as the seed writes them, e.g. `1. 21! 5  2. 24 6`, playing them from `pos` in
    /// turn; move numbers (`1.`, `12...`) are skipped. The moves come back in order; `pos` is untouched.
    pub fn parse_line(
        &self,
        pos: &SowingPosition,
        text: &str,
    ) -> Result<Vec<SowingMove>, MoveError> {
        let mut here = pos.clone();
        let mut moves = Vec::new();
        for token in text.split_whitespace() {
            let number_only = token.trim_end_matches('.');
            if number_only.len() < token.len() && number_only.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let mv = self.parse_move(&here, token).map_err(|e| match e {
                MoveError::Syntax(m) => MoveError::Syntax(format!("move {}: {m}", moves.len() + 1)),
                MoveError::Illegal(m) => {
                    MoveError::Illegal(format!("move {}: {m}", moves.len() + 1))
                }
            })?;
            self.play_move(&mut here, &mv);
            moves.push(mv);
        }
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::{Compiled, RulesFile};

    /// The move `parse_move` reads; when it reads one, its sowing, played, gives the position that playing
    /// the move from the start gives.
    fn parsed(
        game: &SowingGame,
        pos: &SowingPosition,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        let (mv, sown) = parse_move(game, pos, text)?;
        let (mut taken, mut played) = (pos.clone(), pos.clone());
        game.play_sown(&mut taken, &mv, sown);
        game.play_move(&mut played, &mv);
        assert_eq!(taken, played, "{text}: its sowing played as read");
        Ok(mv)
    }

    /// The old way: find the move among the legal moves of `pos`. Checking the hole and the chosen holes
    /// directly must accept the same texts, give the same moves and say the same when it refuses.
    fn by_listing(
        game: &SowingGame,
        pos: &SowingPosition,
        text: &str,
    ) -> Result<SowingMove, MoveError> {
        let written = read(text)?;
        let per_side = game.len as u32;
        let hole = written.hole;
        if hole == 0 || hole > per_side {
            return Err(MoveError::Illegal(format!(
                "there is no hole {hole}: each side's holes are numbered 1 to {per_side}"
            )));
        }
        let mut legal = Vec::new();
        game.legal_moves(pos, &mut legal).unwrap();
        if legal.is_empty() {
            return Err(MoveError::Illegal(format!(
                "{text}: the game is over ({:?})",
                game.outcome(pos)
            )));
        }
        legal.retain(|m| u32::from(m.hole()) == hole);
        if legal.is_empty() {
            return Err(MoveError::Illegal(why_hole_cannot_start(game, pos, hole)));
        }
        let capture = game.file_holes_taken(pos, (hole - 1) as usize);
        match (capture, written.capture) {
            (None, None) => Ok(legal[0]),
            (None, Some(_)) => Err(MoveError::Illegal(format!(
                "{hole} captures nothing here: write it as {hole}"
            ))),
            (Some(_), None) => {
                if legal.len() == 1 {
                    Ok(legal[0])
                } else {
                    Err(MoveError::Illegal(format!(
                        "{hole} captures and the extra holes are the mover's choice: name them, e.g. {}",
                        format_move(game, pos, &legal[0])
                    )))
                }
            }
            (Some(_), Some((_count, extras))) => {
                let mut wanted: Vec<u32> = extras;
                wanted.sort_unstable();
                if wanted.windows(2).any(|w| w[0] == w[1]) {
                    return Err(MoveError::Illegal(format!(
                        "{text}: an extra hole is named twice"
                    )));
                }
                let found = legal.iter().find(|m| {
                    m.extra_holes().count() == wanted.len()
                        && m.extra_holes()
                            .zip(&wanted)
                            .all(|(a, &b)| u32::from(a) == b)
                });
                match found {
                    Some(m) => Ok(*m),
                    None => {
                        let need = legal[0].extra_holes().count();
                        Err(MoveError::Illegal(format!(
                            "{text}: the capture takes {need} extra hole(s) of the opponent's, chosen among \
                             their non-empty holes outside the captured file (at most {MAX_EXTRA_HOLES}); \
                             for example {}",
                            format_move(game, pos, &legal[0])
                        )))
                    }
                }
            }
        }
    }

    fn sowing_games() -> Vec<(String, SowingGame)> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog/games");
        let mut games = Vec::new();
        for id in ["shimunana", "tchouba"] {
            let text = std::fs::read_to_string(format!("{root}/{id}/rules.txt")).unwrap();
            let rules = RulesFile::parse(&text).unwrap();
            for r in &rules.rulesets {
                if let Ok(Compiled::Sowing(g)) = rules.compile(Some(&r.info.name)) {
                    games.push((format!("{id} {}", r.info.name), *g));
                }
            }
        }
        assert!(games.len() >= 10, "the catalog's sowing rulesets are found");
        games
    }

    /// Texts near a move's: other holes, captures added, dropped or changed.
    fn mutations(game: &SowingGame, mv: &SowingMove, text: &str, rng: &mut Rng) -> Vec<String> {
        let len = game.len as u32;
        let hole = u32::from(mv.hole());
        let other = |rng: &mut Rng| rng.below(game.len + 2) as u32;
        let extras: Vec<u16> = mv.extra_holes().collect();
        let mut out = vec![
            hole.to_string(),
            format!("{}", hole % len + 1),
            format!("{}", other(rng)),
            format!("{hole}(x1)"),
            format!("{hole}(x2+pit{})", other(rng)),
            format!("{hole}(x1+pit{}&{})", other(rng), other(rng)),
            format!("{}(x2+pit{}&{})", other(rng), other(rng), other(rng)),
            format!("{text}!?"),
            format!("{hole}(x1+pit{}&{}&{})", other(rng), other(rng), other(rng)),
        ];
        if let Some((&first, rest)) = extras.split_first() {
            out.push(format!("{hole}(x1+pit{first}&{first})"));
            let changed: Vec<String> = std::iter::once(other(rng).to_string())
                .chain(rest.iter().map(u16::to_string))
                .collect();
            out.push(format!("{hole}(x2+pit{})", changed.join("&")));
            let fewer: Vec<String> = rest.iter().map(u16::to_string).collect();
            out.push(format!("{hole}(x2+pit{})", fewer.join("&")));
        }
        out
    }

    #[test]
    fn a_written_sowing_is_checked_as_the_move_list_finds_it() {
        let mut rng = Rng::new(77);
        let mut checked = 0u64;
        for (name, game) in sowing_games() {
            for _ in 0..2 {
                let mut pos = game.start();
                let mut legal = Vec::new();
                for _ in 0..120 {
                    legal.clear();
                    game.legal_moves(&pos, &mut legal).unwrap();
                    assert_eq!(legal.is_empty(), game.outcome(&pos).is_some(), "{name}");
                    // Big boards offer a hundred thousand moves: try the first, the last and a sample.
                    let sample: Vec<SowingMove> = if legal.len() <= 60 {
                        legal.clone()
                    } else {
                        let mut v = vec![legal[0], legal[legal.len() - 1]];
                        v.extend((0..40).map(|_| legal[rng.below(legal.len())]));
                        v
                    };
                    for mv in &sample {
                        let text = format_move(&game, &pos, mv);
                        let listed = by_listing(&game, &pos, &text);
                        assert!(listed.is_ok(), "{name}: {text} is listed");
                        assert_eq!(parsed(&game, &pos, &text), listed, "{name}: {text}");
                        for other in mutations(&game, mv, &text, &mut rng) {
                            assert_eq!(
                                parsed(&game, &pos, &other),
                                by_listing(&game, &pos, &other),
                                "{name}: {other} in {}",
                                game.setup_to_string(&pos)
                            );
                            checked += 1;
                        }
                    }
                    if legal.is_empty() {
                        for text in ["1", "2(x1)", "0", "999"] {
                            assert_eq!(
                                parsed(&game, &pos, text),
                                by_listing(&game, &pos, text),
                                "{name}: {text} after the end"
                            );
                        }
                        break;
                    }
                    let mv = legal[rng.below(legal.len())];
                    game.play_move(&mut pos, &mv);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} texts tried");
    }

    #[test]
    fn reads_the_seed_forms() {
        let w = |hole, capture| Written { hole, capture };
        assert_eq!(read("21").unwrap(), w(21, None));
        assert_eq!(read("21!").unwrap(), w(21, None));
        assert_eq!(read(" 23? ").unwrap(), w(23, None));
        assert_eq!(read("28(x2+pit8&9)").unwrap(), w(28, Some((2, vec![8, 9]))));
        assert_eq!(read("9(x1+pit29)").unwrap(), w(9, Some((1, vec![29]))));
        assert_eq!(
            read("12(x1+pit22&24)").unwrap(),
            w(12, Some((1, vec![22, 24])))
        );
        assert_eq!(
            read("12(X1+PIT22&pit24)!?").unwrap(),
            w(12, Some((1, vec![22, 24])))
        );
        assert_eq!(read("7(x2)").unwrap(), w(7, Some((2, vec![]))));
    }

    #[test]
    fn rejects_malformed_text_with_a_syntax_error() {
        for bad in [
            "",
            "x",
            "21(",
            "21(x",
            "21(2)",
            "21(x2+)",
            "21(x2+pit8&)",
            "21(x2",
            "21 22",
            "21a",
            "é",
            "21(x2+pit8",
            "99999999999999999999",
        ] {
            assert!(
                matches!(read(bad), Err(MoveError::Syntax(_))),
                "{bad:?} was accepted"
            );
        }
    }
}
