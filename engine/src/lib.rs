//! The rules engine of ludotheca.

pub mod game;
