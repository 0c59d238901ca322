//! What open pages follow: the state of the last build (good, or failed with its diagnostics), and the event
//! stream that tells each page when it changed.
//!
//! The state has a version, sent to each page with it. A page reloads itself when the stream names another
//! version, and the server adds the current diagnostics to the page it sends then; so a fix, a new build and a
//! new failure all reach the page the same way, and the overlay is made in one place, the server.

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Event streams open at once. Each holds a thread; a local preview needs a few, one per open tab.
const MAX_STREAMS: usize = 64;

/// How often an idle stream sends a comment, so that a closed tab is noticed and its thread ends.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// The script every served page gets. It compares the version the page was served with to the stream's.
pub const SCRIPT: &str = r#"// ludotheca serve: reload this page when the site is rebuilt or its diagnostics change.
(function () {
  'use strict';
  var me = document.currentScript;
  var version = me && me.getAttribute('data-version');
  if (!version || typeof EventSource === 'undefined') return;
  var events = new EventSource('/__ludotheca/events');
  // A message is the new version, then the pages that changed since the last message, or `*` for all.
  events.onmessage = function (event) {
    var words = event.data.split(' ');
    if (words[0] === version) return;
    var here = window.location.pathname;
    if (here.charAt(here.length - 1) === '/') here += 'index.html';
    if (words.indexOf('*') > 0 || words.indexOf(here) > 0) {
      events.close();
      window.location.reload();
    } else {
      version = words[0];
    }
  };
})();
"#;

/// How many builds' lists of changed pages are kept, for a stream that is told of several builds at once.
const HISTORY: usize = 16;

/// A message naming more pages than this tells every page to reload instead.
const MAX_LISTED: usize = 256;

pub struct Live {
    state: Mutex<State>,
    changed: Condvar,
    /// Distinguishes this server's versions from those of a server that ran before it on the same port.
    run: u64,
}

struct State {
    version: u64,
    /// The last build's diagnostics as `check` prints them, when it failed.
    errors: Option<String>,
    streams: usize,
    stopping: bool,
    /// The last builds' versions, each with the pages it changed (as paths from the site's root, `/a/index.html`),
    /// or `None` when every page is to reload (a failure, a recovery, a change to what every page uses).
    history: std::collections::VecDeque<(u64, Option<Vec<String>>)>,
}

impl Live {
    pub fn new() -> Live {
        let run = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Live {
            state: Mutex::new(State {
                version: 0,
                errors: None,
                streams: 0,
                stopping: false,
                history: std::collections::VecDeque::new(),
            }),
            changed: Condvar::new(),
            run,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock would be a bug in the few lines below; the state stays usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn tag(&self, version: u64) -> String {
        format!("{}-{version}", self.run)
    }

    /// The current version and diagnostics, for a page being sent.
    pub fn snapshot(&self) -> (String, Option<String>) {
        let state = self.lock();
        (self.tag(state.version), state.errors.clone())
    }

    /// A build succeeded: the pages it changed reload (`None`: every page), and every page when the last
    /// build had failed, since each carries the diagnostics.
    pub fn built(&self, pages: Option<Vec<String>>) {
        let mut state = self.lock();
        let pages = if state.errors.take().is_some() {
            None
        } else {
            pages
        };
        state.record(pages);
        self.changed.notify_all();
    }

    /// A build failed: pages reload to show the diagnostics, unless they show these already.
    pub fn failed(&self, errors: String) {
        let mut state = self.lock();
        if state.errors.as_deref() != Some(errors.as_str()) {
            state.errors = Some(errors);
            state.record(None);
            self.changed.notify_all();
        }
    }

    /// The message for a stream that was last told of version `since` (none yet: every page it may be on
    /// reloads if its version is not the current one).
    fn message(&self, state: &State, since: Option<u64>) -> String {
        let tag = self.tag(state.version);
        let every = format!("data: {tag} *\n\n");
        let Some(since) = since else { return every };
        let mut pages = std::collections::BTreeSet::new();
        for version in since + 1..=state.version {
            match state.history.iter().find(|(v, _)| *v == version) {
                Some((_, Some(changed))) => pages.extend(changed.iter().map(String::as_str)),
                _ => return every,
            }
        }
        if pages.len() > MAX_LISTED {
            return every;
        }
        let mut message = format!("data: {tag}");
        for page in pages {
            message.push(' ');
            message.push_str(page);
        }
        message.push_str("\n\n");
        message
    }

    pub fn stop(&self) {
        let mut state = self.lock();
        state.stopping = true;
        self.changed.notify_all();
    }

    /// Take a place for an event stream; none when too many are open or the server is stopping.
    pub fn open_stream(self: &Arc<Live>) -> Option<Stream> {
        let mut state = self.lock();
        if state.streams >= MAX_STREAMS || state.stopping {
            return None;
        }
        state.streams += 1;
        Some(Stream {
            live: Arc::clone(self),
        })
    }
}

impl State {
    fn record(&mut self, pages: Option<Vec<String>>) {
        self.version += 1;
        self.history.push_back((self.version, pages));
        if self.history.len() > HISTORY {
            self.history.pop_front();
        }
    }
}

/// An open page's place among the event streams, given back when dropped, whether or not it was ever sent.
pub struct Stream {
    live: Arc<Live>,
}

impl Stream {
    /// Send the version now and at every change, until the page goes away or the server stops.
    pub fn send(self, out: &mut dyn Write) {
        let live = &self.live;
        let mut sent = None;
        let mut state = live.lock();
        loop {
            if state.stopping {
                break;
            }
            let message = if sent != Some(state.version) {
                let message = live.message(&state, sent);
                sent = Some(state.version);
                message
            } else {
                ": idle\n\n".to_string()
            };
            drop(state);
            if out
                .write_all(message.as_bytes())
                .and_then(|()| out.flush())
                .is_err()
            {
                break;
            }
            state = live.lock();
            if sent == Some(state.version) && !state.stopping {
                state = live
                    .changed
                    .wait_timeout(state, KEEPALIVE)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.live.lock().streams -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(message: &str) -> Vec<String> {
        let data = message
            .strip_prefix("data: ")
            .and_then(|m| m.strip_suffix("\n\n"))
            .expect("one event");
        data.split(' ').skip(1).map(str::to_string).collect()
    }

    #[test]
    fn a_stream_is_told_the_pages_each_build_changed_or_to_reload_all() {
        let live = Live::new();
        let pages = |list: &[&str]| Some(list.iter().map(|p| p.to_string()).collect());
        // A stream that was told nothing yet: every page it may be on compares its version.
        assert_eq!(words(&live.message(&live.lock(), None)), ["*"]);

        live.built(pages(&["/a/index.html"]));
        assert_eq!(
            words(&live.message(&live.lock(), Some(0))),
            ["/a/index.html"]
        );
        live.built(pages(&["/b/index.html", "/a/index.html"]));
        // Told of two builds at once: the pages either changed.
        assert_eq!(
            words(&live.message(&live.lock(), Some(0))),
            ["/a/index.html", "/b/index.html"]
        );
        assert_eq!(
            words(&live.message(&live.lock(), Some(1))),
            ["/a/index.html", "/b/index.html"]
        );

        // A failure, and the build that recovers from it, reload every page (each carries the diagnostics).
        live.failed("error".to_string());
        assert_eq!(words(&live.message(&live.lock(), Some(2))), ["*"]);
        live.built(pages(&["/a/index.html"]));
        assert_eq!(words(&live.message(&live.lock(), Some(3))), ["*"]);
        live.built(pages(&["/c/index.html"]));
        assert_eq!(
            words(&live.message(&live.lock(), Some(4))),
            ["/c/index.html"]
        );

        // Older than the history kept: every page.
        for _ in 0..HISTORY {
            live.built(pages(&["/d/index.html"]));
        }
        assert_eq!(words(&live.message(&live.lock(), Some(1))), ["*"]);
        // Too many pages to list: every page.
        let many: Vec<String> = (0..=MAX_LISTED)
            .map(|n| format!("/p{n}/index.html"))
            .collect();
        let version = live.lock().version;
        live.built(Some(many));
        assert_eq!(words(&live.message(&live.lock(), Some(version))), ["*"]);
    }
}
