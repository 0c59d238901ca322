//! A one-line progress bar on standard error, for catalogs large enough to take a moment. The caller enables it
//! only when standard error is a terminal and `--quiet` is not given, so logs and pipes never see it.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Below this many pages a build is over before a bar could be read.
const MIN_PAGES: usize = 2_000;

pub struct Progress {
    /// What is being done and what is counted: `rendering`, `pages`.
    doing: &'static str,
    counted: &'static str,
    total: usize,
    done: AtomicUsize,
    enabled: bool,
    last: Mutex<Instant>,
}

impl Progress {
    pub fn new(total: usize, wanted: bool) -> Progress {
        Progress::counting("rendering", "pages", total, wanted)
    }

    /// A bar for other work than rendering: `counting("importing", "items", n, wanted)`.
    pub fn counting(
        doing: &'static str,
        counted: &'static str,
        total: usize,
        wanted: bool,
    ) -> Progress {
        Progress {
            doing,
            counted,
            total,
            done: AtomicUsize::new(0),
            enabled: wanted && total >= MIN_PAGES,
            last: Mutex::new(Instant::now()),
        }
    }

    /// Count one page; redraw at most ten times a second.
    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.enabled {
            return;
        }
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if last.elapsed() < Duration::from_millis(100) && done < self.total {
            return;
        }
        *last = Instant::now();
        let width = 30;
        let filled = done * width / self.total.max(1);
        let bar: String = "#".repeat(filled) + &" ".repeat(width - filled.min(width));
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r  {} [{bar}] {done}/{} {}",
            self.doing, self.total, self.counted
        );
        let _ = err.flush();
    }

    /// Clear the bar's line.
    pub fn finish(&self) {
        if self.enabled {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{}\r", " ".repeat(60));
            let _ = err.flush();
        }
    }
}
