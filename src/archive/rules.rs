//! A game's rules as the site shows them: each ruleset with its type and source, the facts the engine derives
//! from it, and what its board diagram needs (points, lines, holes and the start position). Everything the page
//! needs from the engine is taken here, so that rendering never compiles rules.
//!
//! The rules are compiled once, by `check` ([`crate::check::CheckedGame`]); this module only derives what pages
//! show from the compiled games. A rules file that does not compile is not fatal here: `check` is the gate for
//! rules, and a page can still say what went wrong.

use std::sync::{Arc, Mutex};

use ludotheca_engine::lines::LinesPosition;
use ludotheca_engine::rules::CompiledRuleset;
use ludotheca_engine::ruleset::{Facts, Family, RulesInfo, RulesetType};
use ludotheca_engine::{AnyPosition, Compiled, Game, RulesError};

/// The rules of one game.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Rules {
    pub family: Option<Family>,
    /// Side titles in order (side 0 first).
    pub sides: Vec<String>,
    pub rulesets: Vec<Ruleset>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
}

/// One ruleset (or the base rules of a file that declares none). Its texts are boxed, without room to grow:
/// every game holds its rulesets from the check to the end of a build (hundreds of thousands at 100,000 items).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Ruleset {
    /// The name in the rules file (`ten`); empty for the base rules.
    pub name: Box<str>,
    pub title: Box<str>,
    pub kind: Option<RulesetType>,
    /// A bibliography key.
    pub source: Option<Box<str>>,
    pub pages: Option<Box<str>>,
    /// Shared between rulesets (and games) whose facts are the same, as variants often are.
    #[serde(with = "crate::check::kept::maybe_shared")]
    pub facts: Option<Arc<Facts>>,
    /// Shared between rulesets (and games) that start on the same board with the same pieces: a large catalog
    /// holds many copies of a few boards.
    #[serde(with = "crate::check::kept::maybe_shared")]
    pub diagram: Option<Arc<Diagram>>,
    /// Why this ruleset did not compile, if it did not.
    pub error: Option<Box<str>>,
}

/// What a board diagram draws: points (or holes) with coordinates (x east, y north), lines between them, and
/// what stands on each point at the start.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Diagram {
    pub family: Family,
    pub points: Vec<DiagramPoint>,
    /// Each line is the indices of its points in order.
    pub lines: Vec<Vec<usize>>,
    /// Pieces in hand at the start, per side (placement games).
    pub in_hand: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DiagramPoint {
    pub name: String,
    pub x: f64,
    pub y: f64,
    /// Points and lines: the side and the piece kind's title standing here at the start.
    pub piece: Option<(u8, String)>,
    /// Sowing: the seeds in this hole at the start.
    pub seeds: Option<u16>,
    /// Sowing: whose hole this is.
    pub owner: Option<u8>,
}

/// A rules file as the site shows it, from what `check` read and compiled (each ruleset compiled once, there);
/// a file that does not compile says why. The text itself stays in the catalog (`Item::rules_file`), not copied.
pub fn from_compiled(
    compiled: Result<(&RulesInfo, &[CompiledRuleset]), &RulesError>,
    diagrams: &Shared,
) -> Rules {
    let (info, games) = match compiled {
        Ok(compiled) => compiled,
        Err(err) => {
            return Rules {
                family: None,
                sides: Vec::new(),
                rulesets: Vec::new(),
                error: Some(err.to_string()),
            };
        }
    };
    let game = |name: Option<&str>| {
        games
            .iter()
            .find(|(n, _)| n.as_deref() == name)
            .map(|(_, g)| g)
    };
    let mut rulesets = Vec::with_capacity(info.rulesets.len().max(1));
    if info.rulesets.is_empty() {
        let mut base = Ruleset {
            name: Box::default(),
            title: "Base rules".into(),
            kind: None,
            source: None,
            pages: None,
            facts: None,
            diagram: None,
            error: None,
        };
        fill(&mut base, game(None), diagrams);
        rulesets.push(base);
    }
    for declared in &info.rulesets {
        let mut ruleset = Ruleset {
            name: declared.name.as_str().into(),
            title: declared.title.as_str().into(),
            kind: Some(declared.kind),
            source: (!declared.source.is_empty()).then(|| declared.source.as_str().into()),
            pages: declared.pages.as_deref().map(Box::from),
            facts: None,
            diagram: None,
            error: None,
        };
        fill(&mut ruleset, game(Some(&declared.name)), diagrams);
        rulesets.push(ruleset);
    }
    Rules {
        family: Some(info.family),
        sides: info.sides.iter().map(|(_, title)| title.clone()).collect(),
        rulesets,
        error: None,
    }
}

fn fill(ruleset: &mut Ruleset, compiled: Option<&Compiled>, shared: &Shared) {
    match compiled {
        Some(game) => {
            ruleset.facts = Some(shared.facts(game.facts()));
            ruleset.diagram = Some(shared.share(diagram(game)));
        }
        // `parse_compiled` compiles every ruleset it lists, so this is only a guard.
        None => ruleset.error = Some("the ruleset was not compiled".into()),
    }
}

/// One copy of each distinct diagram, shared by every ruleset that draws it, and of each distinct set of
/// facts. Safe to use from many threads.
#[derive(Default)]
pub struct Shared {
    diagrams: Mutex<foldhash::HashMap<u64, Vec<Arc<Diagram>>>>,
    facts: Mutex<foldhash::HashMap<u64, Vec<Arc<Facts>>>>,
}

impl Shared {
    /// The shared copy of `facts`.
    pub fn facts(&self, facts: Facts) -> Arc<Facts> {
        self.facts_arc(&Arc::new(facts))
    }

    /// The shared copy of facts that may be held elsewhere too (read back from an earlier build).
    pub fn facts_arc(&self, facts: &Arc<Facts>) -> Arc<Facts> {
        let mut map = self
            .facts
            .lock()
            .expect("no thread panics while holding the facts");
        let same = map.entry(facts_key(facts)).or_default();
        if let Some(shared) = same.iter().find(|f| ***f == **facts) {
            return Arc::clone(shared);
        }
        same.push(Arc::clone(facts));
        Arc::clone(facts)
    }

    /// The shared copy of `diagram`: itself, unless an equal diagram was shared before.
    pub fn share_arc(&self, diagram: &Arc<Diagram>) -> Arc<Diagram> {
        let key = diagram.key();
        let mut map = self
            .diagrams
            .lock()
            .expect("no thread panics while holding the diagrams");
        let same = map.entry(key).or_default();
        if let Some(shared) = same.iter().find(|d| ***d == **diagram) {
            return Arc::clone(shared);
        }
        same.push(Arc::clone(diagram));
        Arc::clone(diagram)
    }

    /// The shared copy of `diagram`.
    pub fn share(&self, diagram: Diagram) -> Arc<Diagram> {
        self.share_arc(&Arc::new(diagram))
    }
}

impl Diagram {
    /// A hash of everything the diagram draws (coordinates by their bits).
    fn key(&self) -> u64 {
        // Written into one buffer and hashed at once: a large board's diagram is a few thousand small fields,
        // and the hasher's cost is mostly per call. A collision only costs a comparison (see `share`).
        let mut bytes = Vec::with_capacity(64 + self.points.len() * 32);
        bytes.push(self.family as u8);
        for n in self.in_hand {
            bytes.extend(n.to_le_bytes());
        }
        for line in &self.lines {
            bytes.extend((line.len() as u32).to_le_bytes());
            bytes.extend(line.iter().flat_map(|&i| (i as u32).to_le_bytes()));
        }
        for p in &self.points {
            bytes.extend((p.name.len() as u32).to_le_bytes());
            bytes.extend(p.name.as_bytes());
            bytes.extend(p.x.to_bits().to_le_bytes());
            bytes.extend(p.y.to_bits().to_le_bytes());
            match &p.piece {
                Some((side, kind)) => {
                    bytes.push(side.wrapping_add(1));
                    bytes.extend((kind.len() as u32).to_le_bytes());
                    bytes.extend(kind.as_bytes());
                }
                None => bytes.push(0),
            }
            bytes.extend(p.seeds.map_or(u32::MAX, u32::from).to_le_bytes());
            bytes.push(p.owner.map_or(u8::MAX, |o| o.min(u8::MAX - 1)));
        }
        xxhash_rust::xxh3::xxh3_64(&bytes)
    }
}

/// A hash of every field of `facts`; a collision only costs a comparison (see [`Shared::facts_arc`]).
fn facts_key(facts: &Facts) -> u64 {
    use std::hash::BuildHasher;
    use std::hash::{Hash, Hasher};
    // Only ever compared within this process: the fast hash, not the standard library's keyed one.
    let mut h = foldhash::fast::FixedState::default().build_hasher();
    facts.players.hash(&mut h);
    facts.points.hash(&mut h);
    facts.pieces_per_side.hash(&mut h);
    facts.move_kinds.hash(&mut h);
    facts.capture_rules.hash(&mut h);
    facts.end_conditions.hash(&mut h);
    h.finish()
}

/// The board and its start position, from the compiled rules.
pub fn diagram(game: &Compiled) -> Diagram {
    diagram_at(game, &game.start())
}

/// The board with the pieces or seeds of `start`, a position of `game` (a puzzle's, set by its record).
pub fn diagram_at(game: &Compiled, start: &AnyPosition) -> Diagram {
    let geometry = game.geometry();
    let mut points: Vec<DiagramPoint> = geometry
        .points
        .into_iter()
        .map(|p| DiagramPoint {
            name: p.name,
            x: p.x,
            y: p.y,
            piece: None,
            seeds: None,
            owner: None,
        })
        .collect();
    let mut in_hand = [0u32; 2];
    match (game, start) {
        (Compiled::Lines(g), AnyPosition::Lines(pos)) => {
            place_pieces(&mut points, pos, |kind| {
                g.rules
                    .kinds
                    .get(usize::from(kind))
                    .map_or_else(|| "piece".to_string(), |k| k.title.clone())
            });
            for (side, hand) in pos.hand.iter().enumerate() {
                in_hand[side] = hand.iter().map(|&h| u32::from(h)).sum();
            }
        }
        (Compiled::Sowing(g), AnyPosition::Sowing(pos)) => {
            // The geometry lists South's holes then North's, each in track order (see `Compiled::geometry`).
            let per_side = usize::from(g.holes_per_side()).max(1);
            for (i, point) in points.iter_mut().enumerate() {
                let side = if i < per_side { 0 } else { 1 };
                let number = (i % per_side + 1) as u16;
                point.seeds = Some(pos.seeds(side, number));
                point.owner = Some(side);
            }
        }
        _ => {}
    }
    Diagram {
        family: game.family(),
        points,
        lines: geometry.lines,
        in_hand,
    }
}

fn place_pieces(
    points: &mut [DiagramPoint],
    pos: &LinesPosition,
    kind_title: impl Fn(u8) -> String,
) {
    for (i, point) in points.iter_mut().enumerate() {
        let Ok(p) = u8::try_from(i) else { break };
        if let (Some(side), Some(kind)) = (pos.side_at(p), pos.kind_at(p)) {
            point.piece = Some((side, kind_title(kind)));
        }
    }
}

/// "points" or "holes", for the facts of a family.
pub fn point_word(family: Option<Family>) -> &'static str {
    match family {
        Some(Family::Sowing) => "holes",
        _ => "points",
    }
}

/// The family as a facet value.
pub fn family_name(family: Family) -> &'static str {
    match family {
        Family::PointsAndLines => "points and lines",
        Family::Sowing => "sowing",
    }
}
