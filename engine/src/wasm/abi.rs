//! The C ABI of the engine for the page (wasm32 only): raw exports, no wasm-bindgen. Strings go in through
//! linear memory (`lt_alloc` a buffer, write UTF-8, pass pointer and length; the engine frees nothing it did
//! not allocate: the caller calls `lt_free`), and every answer comes back in one output buffer read through
//! `lt_out_ptr`/`lt_out_len` right after the call. Functions return 0 (or a handle) on success and -1 when the
//! output holds an error object. Handles index a table of sessions; a freed handle answers -1.

use super::{Session, error_json};
use std::cell::RefCell;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// Milliseconds from the page's clock (`performance.now()`), for the computer player's time budget.
    fn now_ms() -> f64;
}

thread_local! {
    static SESSIONS: RefCell<Vec<Option<Session>>> = const { RefCell::new(Vec::new()) };
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn set_out(s: String) {
    OUT.with(|o| *o.borrow_mut() = s);
}

/// Reads a string the page wrote into memory; invalid UTF-8 is replaced rather than trusted.
fn text(ptr: *const u8, len: usize) -> String {
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    // The page passes a buffer it obtained from `lt_alloc` with at least `len` bytes written.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

fn with_session<R>(h: i32, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    SESSIONS.with(|s| {
        let mut s = s.borrow_mut();
        let slot = s.get_mut(usize::try_from(h).ok()?)?.as_mut()?;
        Some(f(slot))
    })
}

/// Runs `f` on session `h`, storing its answer; -1 with an error when the handle is unknown or `f` fails.
fn answer(h: i32, f: impl FnOnce(&mut Session) -> Result<String, String>) -> i32 {
    match with_session(h, f) {
        Some(Ok(s)) => {
            set_out(s);
            0
        }
        Some(Err(e)) => {
            set_out(e);
            -1
        }
        None => {
            set_out(error_json("no such board", None));
            -1
        }
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_alloc(len: usize) -> *mut u8 {
    let mut v: Vec<u8> = Vec::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// # Safety
/// `ptr` and `len` must come from one `lt_alloc` call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lt_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

/// Compiles a ruleset of a rules text into a new session; returns its handle, or -1 (the error has the line
/// and column in the rules text).
#[unsafe(no_mangle)]
pub extern "C" fn lt_new(rules: *const u8, rules_len: usize, rs: *const u8, rs_len: usize) -> i32 {
    match Session::new(&text(rules, rules_len), &text(rs, rs_len)) {
        Ok(session) => SESSIONS.with(|s| {
            let mut s = s.borrow_mut();
            let h = match s.iter().position(Option::is_none) {
                Some(i) => {
                    s[i] = Some(session);
                    i
                }
                None => {
                    s.push(Some(session));
                    s.len() - 1
                }
            };
            set_out(String::new());
            h as i32
        }),
        Err(e) => {
            set_out(e);
            -1
        }
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_drop(h: i32) {
    SESSIONS.with(|s| {
        if let Some(slot) = usize::try_from(h)
            .ok()
            .and_then(|i| s.borrow_mut().get_mut(i).map(Option::take))
        {
            drop(slot);
        }
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_info(h: i32) -> i32 {
    answer(h, |s| Ok(s.info_json()))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_set_position(h: i32, ptr: *const u8, len: usize) -> i32 {
    let setup = text(ptr, len);
    answer(h, |s| s.set_position(&setup).map(|()| String::new()))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_load_record(h: i32, ptr: *const u8, len: usize) -> i32 {
    let record = text(ptr, len);
    answer(h, |s| s.load_record(&record))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_goto(h: i32, ply: u32) -> i32 {
    answer(h, |s| {
        s.goto(ply as usize);
        Ok(String::new())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_play(h: i32, ptr: *const u8, len: usize) -> i32 {
    let mv = text(ptr, len);
    answer(h, |s| s.play(&mv).map(|()| String::new()))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_state(h: i32) -> i32 {
    answer(h, |s| Ok(s.state_json()))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_legal(h: i32) -> i32 {
    answer(h, |s| s.legal_json())
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_legal_notation(h: i32) -> i32 {
    answer(h, |s| s.legal_notation())
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_continuations(h: i32, ptr: *const u8, len: usize) -> i32 {
    let route = text(ptr, len);
    answer(h, |s| s.continuations_json(&route))
}

#[unsafe(no_mangle)]
pub extern "C" fn lt_sow_steps(h: i32, ptr: *const u8, len: usize) -> i32 {
    let mv = text(ptr, len);
    answer(h, |s| Ok(s.sow_steps_json(&mv)))
}

/// The computer player's choice at the cursor within `max_nodes` and `max_ms` (0: no time limit).
#[unsafe(no_mangle)]
pub extern "C" fn lt_think(h: i32, max_nodes: u32, max_ms: u32, seed: u32) -> i32 {
    // A float-to-integer cast saturates (NaN and negatives give 0), so any answer of the page's clock is safe.
    let clock = || unsafe { now_ms() } as u64;
    answer(h, |s| {
        let c: &dyn Fn() -> u64 = &clock;
        s.think_json(
            u64::from(max_nodes),
            u64::from(max_ms),
            u64::from(seed),
            (max_ms > 0).then_some(c),
        )
    })
}

/// Why a move is illegal at the cursor (plain text in the output; empty when it is legal).
#[unsafe(no_mangle)]
pub extern "C" fn lt_explain(h: i32, ptr: *const u8, len: usize) -> i32 {
    let mv = text(ptr, len);
    answer(h, |s| Ok(s.explain(&mv)))
}
