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
  events.onmessage = function (event) {
    if (event.data !== version) {
      events.close();
      window.location.reload();
    }
  };
})();
"#;

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

    /// A build succeeded: every page reloads.
    pub fn built(&self) {
        let mut state = self.lock();
        state.version += 1;
        state.errors = None;
        self.changed.notify_all();
    }

    /// A build failed: pages reload to show the diagnostics, unless they show these already.
    pub fn failed(&self, errors: String) {
        let mut state = self.lock();
        if state.errors.as_deref() != Some(errors.as_str()) {
            state.version += 1;
            state.errors = Some(errors);
            self.changed.notify_all();
        }
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
                sent = Some(state.version);
                format!("data: {}\n\n", live.tag(state.version))
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
