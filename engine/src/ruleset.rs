//! What the site and the checker learn about a game without playing it: its rulesets (typed, with their source)
//! and facts derived from each ruleset's compiled rules, and the board's geometry for drawing.

use std::fmt;

/// How a ruleset is known, as the Digital Ludeme Project types them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RulesetType {
    /// Rules a source writes down.
    Described,
    /// Rules seen being played.
    Observed,
    /// Rules filled in by a scholar where the sources are silent.
    Reconstructed,
    /// Rules proposed for playing today, without a claim about the past.
    Suggested,
    /// A reading the sources leave partly open; playable as far as stated.
    Incomplete,
}

impl RulesetType {
    pub fn parse(word: &str) -> Option<RulesetType> {
        Some(match word {
            "described" => RulesetType::Described,
            "observed" => RulesetType::Observed,
            "reconstructed" => RulesetType::Reconstructed,
            "suggested" => RulesetType::Suggested,
            "incomplete" => RulesetType::Incomplete,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RulesetType::Described => "described",
            RulesetType::Observed => "observed",
            RulesetType::Reconstructed => "reconstructed",
            RulesetType::Suggested => "suggested",
            RulesetType::Incomplete => "incomplete",
        }
    }
}

impl fmt::Display for RulesetType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One ruleset as declared in a rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RulesetInfo {
    pub name: String,
    pub title: String,
    pub kind: RulesetType,
    /// A key of the catalog bibliography.
    pub source: String,
    pub pages: Option<String>,
    /// Where the `ruleset` line is (1-based).
    pub line: u32,
    pub column: u32,
    /// Where the source key is written, so a checker can point at an unknown key.
    pub source_line: u32,
    pub source_column: u32,
}

/// The family of a rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Family {
    PointsAndLines,
    Sowing,
}

/// What a rules file declares, before any ruleset is compiled.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RulesInfo {
    pub game: String,
    pub family: Family,
    /// (name, title) in order: the first side is side 0.
    pub sides: Vec<(String, String)>,
    pub rulesets: Vec<RulesetInfo>,
}

/// Facts derived from one compiled ruleset, for the site's rule summaries and facets.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Facts {
    pub players: u8,
    /// Points (points-and-lines) or holes (sowing).
    pub points: usize,
    /// Pieces (or seeds) per side at the start, on the board and in hand.
    pub pieces_per_side: [u32; 2],
    /// Short words: `step`, `slide`, `jump`, `long-jump`, `placement`, `promotion`, `sowing`, `relay`...
    pub move_kinds: Vec<String>,
    /// Sentences: "capture is compulsory", "chains must continue"...
    pub capture_rules: Vec<String>,
    pub end_conditions: Vec<String>,
}

/// A board to draw: points with coordinates (x east, y north; grid points one unit apart) and lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub points: Vec<GeometryPoint>,
    /// Each line is the indices of its points in order.
    pub lines: Vec<Vec<usize>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GeometryPoint {
    pub name: String,
    pub x: f64,
    pub y: f64,
}
