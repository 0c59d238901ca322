//! `cargo run --release -p ludotheca-engine --example replay_dump -- CATALOG-DIR`: the native side of the
//! interactive board's parity test (tests/board/parity.js). For every game record of the catalog it replays the
//! record under its ruleset and prints one JSON line per record: for each ply, the position in setup notation,
//! the outcome, and the legal moves in notation (sorted; their count and an FNV-1a 64 hash of the sorted list
//! joined by newlines, and the list itself when it is short). The wasm side computes the same from the page's
//! API, so the two engines are compared move by move without trusting either one's JSON writer.

use ludotheca_engine::record::{self, Record};
use ludotheca_engine::wasm::json::quote;
use ludotheca_engine::{Game, Outcome};
use std::fs;
use std::path::Path;

/// Lists longer than this are compared by count and hash only (4 x 40 Tchouba offers 120,160 at the start).
const FULL_LIST: usize = 2000;

fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "catalog".into());
    let games = Path::new(&dir).join("games");
    let mut items: Vec<_> = fs::read_dir(&games)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    items.sort();
    for item in items {
        let Ok(rules) = fs::read_to_string(item.join("rules.txt")) else {
            continue;
        };
        let mut records: Vec<_> = fs::read_dir(item.join("games"))
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        records.retain(|p| p.extension().is_some_and(|e| e == "game"));
        records.sort();
        for path in records {
            let text = fs::read_to_string(&path).unwrap_or_default();
            let rel = path.strip_prefix(&dir).unwrap_or(&path).to_string_lossy();
            let Ok(rec) = Record::parse(&text) else {
                eprintln!("{rel}: does not parse");
                continue;
            };
            let Ok(game) = ludotheca_engine::compile(&rules, rec.tag("Ruleset")) else {
                eprintln!("{rel}: its ruleset does not compile");
                continue;
            };
            let Ok(replay) = record::replay(&game, &rec) else {
                eprintln!("{rel}: does not replay");
                continue;
            };
            let mut out = String::from("{\"file\":");
            quote(&mut out, &rel);
            out.push_str(",\"plies\":[");
            for (i, pos) in replay.positions.iter().enumerate() {
                let mut legal = Vec::new();
                game.legal_moves(pos, &mut legal).unwrap();
                let mut names: Vec<String> =
                    legal.iter().map(|m| game.format_move(pos, m)).collect();
                names.sort();
                let joined = names.join("\n");
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"setup\":");
                quote(&mut out, &game.format_position(pos));
                out.push_str(",\"outcome\":");
                out.push_str(match game.outcome(pos) {
                    Some(Outcome::Win(0)) => "\"1-0\"",
                    Some(Outcome::Win(_)) => "\"0-1\"",
                    Some(Outcome::Draw) => "\"1/2-1/2\"",
                    None => "null",
                });
                out.push_str(&format!(
                    ",\"count\":{},\"fnv\":\"{:016x}\",\"moves\":",
                    names.len(),
                    fnv(&joined)
                ));
                if names.len() <= FULL_LIST {
                    out.push('[');
                    for (k, n) in names.iter().enumerate() {
                        if k > 0 {
                            out.push(',');
                        }
                        quote(&mut out, n);
                    }
                    out.push(']');
                } else {
                    out.push_str("null");
                }
                out.push('}');
            }
            out.push_str("]}");
            println!("{out}");
        }
    }
}
