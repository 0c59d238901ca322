//! "Did you mean": the closest known name to a misspelt one. One implementation serves the catalog checks and
//! the rules compiler: the engine's, since the engine cannot depend on this crate.

pub use ludotheca_engine::suggest::{closest, edit_distance, help_with};
