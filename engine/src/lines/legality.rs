//! Whether one written move is legal, found by following what is written instead of listing every legal move:
//! a placement is checked on its point, a step or slide from its start point, and a capture chain landing by
//! landing along the written path, trying at each landing only the jumps that reach it. Replaying a game record
//! checks every move this way, so its cost does not grow with the number of chains a position offers; the move
//! list is built only to explain a refused move, and in one rare case below.

use super::notation::Written;
use super::rules::{CapturePolicy, Chain, NoMove};
use super::{
    Action, LinesGame, LinesMove, LinesPosition, Longest, MAX_CHAIN, NO_DIR, NO_POINT, bit, huffed,
    mask,
};
use crate::game::{Game, TooManyMoves};

impl LinesGame {
    /// The legal move `w` names in `pos`, or `None`: the same move as the first of `legal_moves` that `w`
    /// names. `Err` only when the rules make the position too big to check (see `MAX_MOVES`).
    pub(super) fn find_written(
        &self,
        pos: &LinesPosition,
        w: &Written,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        match self.follow_written(pos, w)? {
            // A move that brings a position back is not legal where the rules forbid it; another move that reads
            // the same (two chains over different pieces) may be, and the list tells.
            Some(m) if self.repeats(pos, &m) => self.first_listed(pos, w),
            found => Ok(found),
        }
    }

    /// `find_written` before the repetition rule.
    pub(super) fn follow_written(
        &self,
        pos: &LinesPosition,
        w: &Written,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        if self.static_outcome(pos).is_some() {
            return Ok(None);
        }
        if w.action == Action::Pass {
            // A pass is offered only when nothing else is, huffs included.
            let legal = w.huff == NO_POINT
                && self.rules.no_move[pos.to_move as usize] == NoMove::Passes
                && pos.passes < 2
                && !self.any_move(pos);
            return Ok(legal.then(LinesMove::pass));
        }
        // A huff comes first: the move is then made in the position without the huffed piece.
        let after_huff;
        let p = if w.huff == NO_POINT {
            pos
        } else {
            if !self.huffs(pos).any(|h| h == w.huff) {
                return Ok(None);
            }
            after_huff = huffed(pos, w.huff);
            &after_huff
        };
        let s = p.to_move;
        let occ = p.side[0] | p.side[1];
        let in_hand = p.hand[s as usize].iter().any(|&h| h > 0);
        match w.action {
            Action::Place => {
                let &[to] = w.path.as_slice() else {
                    return Ok(None);
                };
                if !in_hand || bit(to) & mask(self.n) & !occ == 0 {
                    return Ok(None);
                }
                // Unnamed, the kind is the first one in hand, as the list orders placements.
                let kind = w.kind.or_else(|| {
                    (0..p.hand[s as usize].len() as u8)
                        .find(|&k| p.hand[s as usize][k as usize] > 0)
                });
                let Some(k) =
                    kind.filter(|&k| p.hand[s as usize].get(k as usize).is_some_and(|&h| h > 0))
                else {
                    return Ok(None);
                };
                Ok(Some(LinesMove::new(Action::Place, k, NO_POINT, to, w.huff)))
            }
            Action::Move => {
                let &[to] = w.path.as_slice() else {
                    return Ok(None);
                };
                let Some(k) = self.own_kind_at(p, w.from) else {
                    return Ok(None);
                };
                if in_hand
                    || (self.rules.capture == CapturePolicy::Compulsory && self.any_capture(p))
                    || !self.quiet_reaches(k, s, w.from, to, occ)
                {
                    return Ok(None);
                }
                let mut m = LinesMove::new(Action::Move, k, w.from, to, w.huff);
                m.promotes = self.promotion(k, s, to);
                Ok(Some(m))
            }
            Action::Capture => {
                let Some(k) = self.own_kind_at(p, w.from) else {
                    return Ok(None);
                };
                let enemy = p.side[1 - s as usize];
                if in_hand
                    || w.path.is_empty()
                    || w.path.len() > MAX_CHAIN
                    || !self.may_capture_from(k, s, w.from, enemy)
                {
                    return Ok(None);
                }
                // Two chains can read alike only on hand-drawn boards where two lines from one point reach the
                // same landing over different pieces. The first found is the first listed, except that keeping
                // only the longest chains reorders the list: then look for a second one too.
                let want = if self.rules.maximum { 2 } else { 1 };
                let mut found = Vec::with_capacity(want);
                let mut mv = LinesMove::new(Action::Capture, k, w.from, w.from, w.huff);
                let _ = self.follow(
                    k,
                    s,
                    w.from,
                    occ & !bit(w.from),
                    enemy,
                    NO_DIR,
                    &w.path,
                    &mut mv,
                    &mut found,
                    want,
                );
                if found.is_empty() {
                    return Ok(None);
                }
                if self.rules.maximum {
                    let mut longest = Longest::default();
                    self.captures(p, w.huff, &mut longest)?;
                    if w.path.len() != longest.best as usize {
                        return Ok(None);
                    }
                    if found.len() > 1 {
                        return self.first_listed(pos, w);
                    }
                }
                Ok(found.first().copied())
            }
            Action::Pass => Ok(None),
        }
    }

    /// The first move of `legal_moves` that `w` names: the plain way to find a written move.
    pub(super) fn first_listed(
        &self,
        pos: &LinesPosition,
        w: &Written,
    ) -> Result<Option<LinesMove>, TooManyMoves> {
        let mut legal = Vec::new();
        self.legal_moves(pos, &mut legal)?;
        Ok(legal.into_iter().find(|m| w.names(m)))
    }

    /// The kind of the side to move's piece on `p`, if one stands there.
    fn own_kind_at(&self, pos: &LinesPosition, p: u8) -> Option<u8> {
        if (p as usize) >= self.n || pos.side[pos.to_move as usize] & bit(p) == 0 {
            return None;
        }
        pos.kind_at(p)
    }

    /// Whether a piece of kind `k` on `from` may step or slide to `to` on a board occupied as `occ`.
    fn quiet_reaches(&self, k: u8, s: u8, from: u8, to: u8, occ: u128) -> bool {
        let t = self.table(k, s, from);
        if (to as usize) >= self.n || occ & bit(to) != 0 {
            return false;
        }
        t.step & bit(to) != 0
            || t.slides.iter().any(|&(start, len, land)| {
                land & bit(to) != 0
                    && self.pool[start as usize..start as usize + len as usize]
                        .iter()
                        .take_while(|&&q| occ & bit(q) == 0)
                        .any(|&q| q == to)
            })
    }

    /// Whether a chain standing on `cur` after `len` jumps may jump again.
    #[allow(clippy::too_many_arguments)]
    fn can_jump(&self, k: u8, s: u8, cur: u8, occ: u128, enemy: u128, last: u8, len: u8) -> bool {
        (len as usize) < MAX_CHAIN
            && self
                .each_jump(k, s, cur, occ, enemy, last, |_, _, _| Err(()))
                .is_err()
    }

    /// Follows the written `path` from `cur`, the chain so far in `mv`, trying only the jumps that land on the
    /// next written point, and collects in `found` the complete moves that read as `path`, in list order,
    /// until it holds `want`. A chain is a move where the generator would end it: where it must stop, where it
    /// may stop, or where it cannot go on.
    #[allow(clippy::too_many_arguments)]
    fn follow(
        &self,
        k: u8,
        s: u8,
        cur: u8,
        occ: u128,
        enemy: u128,
        last: u8,
        path: &[u8],
        mv: &mut LinesMove,
        found: &mut Vec<LinesMove>,
        want: usize,
    ) -> Result<bool, ()> {
        let Some(&target) = path.get(mv.len as usize) else {
            return Ok(false);
        };
        if mv.len as usize >= MAX_CHAIN {
            return Ok(false);
        }
        self.each_jump(k, s, cur, occ, enemy, last, |over, land, dir| {
            if land != target {
                return Ok(());
            }
            let i = mv.len as usize;
            mv.path[i] = land;
            mv.over[i] = over;
            mv.len += 1;
            let (occ, enemy) = (occ & !bit(over), enemy & !bit(over));
            let stops = self.stops_at(k, s, land);
            let result = if mv.len as usize == path.len() {
                if stops
                    || self.rules.chain == Chain::MayStop
                    || !self.can_jump(k, s, land, occ, enemy, dir, mv.len)
                {
                    let mut m = *mv;
                    m.to = land;
                    m.promotes = self.promotion(k, s, land);
                    found.push(m);
                }
                if found.len() >= want { Err(()) } else { Ok(()) }
            } else if stops {
                Ok(())
            } else {
                self.follow(k, s, land, occ, enemy, dir, path, mv, found, want)
                    .map(|_| ())
            };
            mv.len -= 1;
            mv.path[i] = NO_POINT;
            mv.over[i] = NO_POINT;
            result
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
    //! Following a written move must accept exactly what finding it in the move list accepts, and give the same
    //! move and the same error. Checked over random games of every catalogued points-and-lines ruleset, rules
    //! that exercise each capture setting, the benchmark rules, and any rules files in the folder
    //! `LUDOTHECA_EXTRA_RULES` names: every legal move's notation, and texts mutated from it that are mostly
    //! illegal.

    use super::super::notation;
    use super::*;
    use crate::game::MoveError;
    use crate::rng::Rng;
    use crate::{Compiled, RulesFile};

    /// The old way: read the text, then take the first listed move it names.
    fn by_listing(
        game: &LinesGame,
        pos: &LinesPosition,
        text: &str,
    ) -> Result<LinesMove, MoveError> {
        let text = text.trim();
        let written = notation::read(game, text)?;
        match game.first_listed(pos, &written) {
            Ok(Some(mv)) => Ok(mv),
            Ok(None) => Err(MoveError::Illegal(format!(
                "`{text}` is not a legal move here"
            ))),
            Err(e) => Err(MoveError::Illegal(format!(
                "`{text}` cannot be checked: {e}"
            ))),
        }
    }

    /// `parse_move` against the list: the same move, or the same error; except that a move the list lacks only
    /// because the repetition rule forbids it is refused with its own message, which the list cannot give.
    fn agrees(game: &LinesGame, pos: &LinesPosition, text: &str) -> Result<(), String> {
        let parsed = game.parse_move(pos, text);
        let listed = by_listing(game, pos, text);
        if let (Err(MoveError::Illegal(p)), Err(MoveError::Illegal(l))) = (&parsed, &listed)
            && p.contains("brings back a position")
        {
            let written = notation::read(game, text.trim()).map_err(|e| format!("{e:?}"))?;
            let repeats =
                matches!(game.follow_written(pos, &written), Ok(Some(m)) if game.repeats(pos, &m));
            return if l.ends_with("is not a legal move here") && repeats {
                Ok(())
            } else {
                Err(format!("{text}: `{p}` but the list says `{l}`"))
            };
        }
        if parsed == listed {
            Ok(())
        } else {
            Err(format!("{text}: {parsed:?} but the list says {listed:?}"))
        }
    }

    /// Rules that exercise what the catalog does not: every capture setting, flying kings, promotion, repetition.
    const SETTINGS: [&str; 10] = [
        "capture compulsory\nchain must-continue",
        "capture optional\nchain may-stop",
        "capture compulsory\nchain may-stop\ncapture-choice maximum",
        "capture compulsory\nchain must-continue\ncapture-choice maximum\nchain-turns forbidden",
        "capture huffing\nchain must-continue",
        "capture optional\nchain single\noutcome no-move passes",
        "capture compulsory\nchain must-continue\npromotion continues-chain",
        "capture huffing\nchain may-stop\ncapture-choice maximum",
        "capture optional\nchain may-stop\nrepetition forbidden for white\noutcome repetition 3 draws",
        "capture huffing\nchain must-continue\nrepetition forbidden\noutcome repetition 2 draws",
    ];

    fn fixture(settings: &str) -> String {
        format!(
            "game \"Fixture\"\nboard\n  grid 5 x 5 diagonals alquerque\n  region far-north: a5 b5 c5 d5 e5\n\
             region far-south: a1 b1 c1 d1 e1\nend\n\
             side white forward north\nside black forward south\n\
             piece man: step forward sideways, jump\npiece king: slide, long-jump\n\
             promote man to king for white on far-north\npromote man to king for black on far-south\n\
             setup\n  white: man on a1 b1 c1 d1 e1 a2 b2 c2\n  white: king on d2\n  black: man on a5 b5 c5 d5 e5 \
             a4 b4 c4\n  black: king on d4\n  first white\nend\n{settings}\noutcome move-cap 120 draws\n"
        )
    }

    /// Every points-and-lines ruleset of the catalog and of the benchmark rules, and the fixtures above.
    pub(in crate::lines) fn games() -> Vec<(String, LinesGame)> {
        let mut files: Vec<(String, String)> = Vec::new();
        let mut folders = vec![
            concat!(env!("CARGO_MANIFEST_DIR"), "/../catalog/games").to_string(),
            concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/rules").to_string(),
        ];
        folders.extend(std::env::var("LUDOTHECA_EXTRA_RULES").ok());
        for folder in folders {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            paths.sort();
            for path in paths {
                let file = if path.is_dir() {
                    path.join("rules.txt")
                } else {
                    path.clone()
                };
                if let Ok(text) = std::fs::read_to_string(&file)
                    && file.to_string_lossy().ends_with(".txt")
                {
                    files.push((file.display().to_string(), text));
                }
            }
        }
        assert!(files.len() >= 6, "the catalog's rules files are found");
        files.extend(SETTINGS.iter().map(|s| (s.replace('\n', "; "), fixture(s))));
        let mut games = Vec::new();
        for (name, text) in files {
            let rules = RulesFile::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut names: Vec<Option<String>> = rules
                .rulesets
                .iter()
                .map(|r| Some(r.info.name.clone()))
                .collect();
            if names.is_empty() {
                names.push(None);
            }
            for r in names {
                if let Ok(Compiled::Lines(g)) = rules.compile(r.as_deref()) {
                    games.push((format!("{name} {}", r.unwrap_or_default()), *g));
                }
            }
        }
        games
    }

    /// Texts near `text`: most name no legal move, some name another one.
    fn mutations(game: &LinesGame, text: &str, rng: &mut Rng) -> Vec<String> {
        let names: Vec<&str> = game
            .rules
            .board
            .points
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let any = |rng: &mut Rng| names[rng.below(names.len())];
        let mut out = vec![
            format!("{text}x{}", any(rng)),
            format!("~{}/{text}", any(rng)),
            text.replace('x', "-"),
            text.replace('-', "x"),
            format!("{}-{}", any(rng), any(rng)),
            format!("{}x{}", any(rng), any(rng)),
            format!("{}x{}x{}", any(rng), any(rng), any(rng)),
            format!("@{}", any(rng)),
            format!(
                "{}@{}",
                game.rules.kinds[rng.below(game.rules.kinds.len())].name,
                any(rng)
            ),
            "pass".to_string(),
            format!(" {text} "),
        ];
        if let Some((head, _)) = text.rsplit_once('x') {
            out.push(head.to_string());
        }
        // One point name swapped for another, wherever it stands.
        let parts: Vec<&str> = text.split(['x', '-', '@', '/', '~']).collect();
        let victim = parts[rng.below(parts.len())];
        if !victim.is_empty() {
            out.push(text.replacen(victim, any(rng), 1));
        }
        out
    }

    #[test]
    fn a_written_move_is_found_as_the_move_list_finds_it() {
        let mut rng = Rng::new(2024);
        let mut checked = 0u64;
        for (name, game) in games() {
            for _ in 0..3 {
                let mut pos = game.start();
                let mut legal = Vec::new();
                for _ in 0..150 {
                    legal.clear();
                    game.legal_moves(&pos, &mut legal).unwrap();
                    assert_eq!(
                        legal.is_empty(),
                        game.outcome(&pos).is_some(),
                        "{name}: no moves exactly when the game is over"
                    );
                    for mv in &legal {
                        let text = game.format_move(&pos, mv);
                        let listed = by_listing(&game, &pos, &text);
                        assert!(listed.is_ok(), "{name}: {text} is listed");
                        assert_eq!(game.parse_move(&pos, &text), listed, "{name}: {text}");
                        for other in mutations(&game, &text, &mut rng) {
                            if let Err(e) = agrees(&game, &pos, &other) {
                                panic!("{name}: {e} in {}", game.format_position(&pos));
                            }
                            checked += 1;
                        }
                    }
                    if legal.is_empty() {
                        for other in mutations(&game, "a1-a2", &mut rng) {
                            if let Err(e) = agrees(&game, &pos, &other) {
                                panic!("{name}: {e} after the end");
                            }
                        }
                        break;
                    }
                    let mv = legal[rng.below(legal.len())];
                    game.advance(&mut pos, &mv);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} texts tried");
    }

    /// Two hand-drawn lines from `p1` meet again at `p3`, so `p1xp3` captures either `p2` or `p4`, and
    /// `p1xp3xp1` takes both in either order: texts that name two listed moves. The first listed is found, with
    /// the longest-chain rule too, which reorders the list.
    #[test]
    fn a_text_that_names_two_chains_gives_the_first_listed() {
        for settings in [
            "chain must-continue",
            "chain may-stop",
            "chain may-stop\ncapture-choice maximum",
            "chain must-continue\ncapture-choice maximum",
        ] {
            let text = format!(
                "game \"Two ways\"\nboard\n  point p1 at 0 0\n  point p2 at 1 1\n  point p3 at 2 0\n  \
                 point p4 at 1 -1\n  point p5 at 3 0\n  line p1 p2 p3\n  line p1 p4 p3\n  line p3 p5\nend\n\
                 side white\nside black\npiece man: step, jump\nsetup\n  white: man on p1\n  \
                 black: man on p2 p4\n  first white\nend\n{settings}\n"
            );
            let game = match crate::compile(&text, None) {
                Ok(Compiled::Lines(g)) => *g,
                other => panic!("{other:?}"),
            };
            let pos = game.start();
            let mut legal = Vec::new();
            game.legal_moves(&pos, &mut legal).unwrap();
            let texts: Vec<String> = legal.iter().map(|m| game.format_move(&pos, m)).collect();
            assert!(
                texts.iter().filter(|t| *t == "p1xp3xp1").count() == 2
                    || texts.iter().filter(|t| *t == "p1xp3").count() == 2,
                "{settings}: {texts:?}"
            );
            for written in ["p1xp3", "p1xp3xp1", "p1xp3xp1xp3", "p1-p2", "p1xp2"] {
                assert_eq!(
                    game.parse_move(&pos, written),
                    by_listing(&game, &pos, written),
                    "{settings}: {written}"
                );
            }
        }
    }

    /// A hundred points on one line, flying captures whose chain may stop after any of them, and an enemy on
    /// every fourth point: the chains from the first point number about 3^24, and listing them all would never
    /// end. The rules are refused where they are compiled, and a move written in such a position is checked by
    /// following it, without listing.
    #[test]
    fn capture_chains_that_multiply_without_end_are_refused_not_listed() {
        let text = hostile_rules();
        let e = RulesFile::parse(&text).expect_err("the start position has too many moves");
        assert!(e.message.contains("cannot be played"), "{}", e.message);
        // The same board with the enemies set up later (a hand to place first) compiles; then the position
        // after the placements is refused when listed and checked by following the written chain.
        let lines = hostile_game();
        let mut pos = lines.start();
        for i in (3..100).step_by(4) {
            pos.put(1, 0, lines.rules.board.find(&format!("q{i}")).unwrap());
        }
        pos.put(0, 0, lines.rules.board.find("q0").unwrap());
        pos.hand = [[0; crate::lines::rules::MAX_KINDS]; 2];
        let mut legal = Vec::new();
        assert_eq!(lines.legal_moves(&pos, &mut legal), Err(TooManyMoves));
        assert!(legal.is_empty(), "a refused list is left as it was");
        assert!(lines.outcome(&pos).is_none());
        let mv = lines.parse_move(&pos, "q0xq5xq9").unwrap();
        assert_eq!(mv.captured(), [3, 7]);
        assert!(
            lines.parse_move(&pos, "q0xq3").is_err(),
            "a chain cannot land on a piece"
        );
        let e = lines.parse_move(&pos, "q0xq3").unwrap_err();
        assert!(matches!(e, MoveError::Illegal(_)), "{e:?}");
        // Game records from that position: a chain that follows the line replays, one that lands on a piece
        // is refused, without the list of legal moves, which cannot be made.
        let setup = format!("white man q0; black man {}; to-move white", every_fourth());
        let record = |moves: &str| {
            crate::record::Record::parse(&format!(
                "[Event \"Chains\"]\n[Kind \"demonstration\"]\n[Position \"{setup}\"]\n\n{moves}\n"
            ))
            .unwrap()
        };
        let good = crate::record::check(&lines, &record("1. q0xq5xq9xq13 *")).unwrap();
        assert_eq!((good.plies, good.end.captured[0]), (1, 3));
        let bad = crate::record::check(&lines, &record("1. q0xq3 *")).unwrap_err();
        assert!(bad.legal.is_empty(), "{bad}");
        assert!(bad.message.contains("more than"), "{bad}");
    }

    fn hostile_rules() -> String {
        hostile_with("white: man on q0\n  black: man on ".to_string() + &every_fourth())
    }

    fn every_fourth() -> String {
        (3..100)
            .step_by(4)
            .map(|i| format!("q{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn hostile_with(setup: String) -> String {
        let points: Vec<String> = (0..100)
            .map(|i| format!("  point q{i} at {i} 0\n"))
            .collect();
        let names: Vec<String> = (0..100).map(|i| format!("q{i}")).collect();
        format!(
            "game \"Long line\"\nboard\n{}  line {}\nend\nside white\nside black\n\
             piece man: slide, long-jump\nsetup\n  {setup}\n  first white\nend\nchain may-stop\n",
            points.concat(),
            names.join(" ")
        )
    }

    fn hostile_game() -> LinesGame {
        let text = hostile_with("white: 1 man in hand\n  black: 1 man in hand".to_string());
        match crate::compile(&text, None) {
            Ok(Compiled::Lines(g)) => *g,
            other => panic!("{other:?}"),
        }
    }
}
