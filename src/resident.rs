//! How much memory this process holds, as the kernel counts it: what `--timings` prints after each step, so
//! that an archivist whose catalog grows can see which step needs the memory, and a benchmark can report it
//! without a tool around the program.

use std::sync::atomic::{AtomicBool, Ordering};

/// Resident memory in bytes: now, and the most the process has held so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resident {
    pub now: u64,
    pub peak: u64,
}

/// The process's resident memory; `None` where the kernel does not say (systems without `/proc`).
pub fn resident() -> Option<Resident> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_status(&status)
}

/// How much of the process's memory lies in large pages (`AnonHugePages`, see [`crate::large_pages`]); `None`
/// where the kernel does not say.
pub fn in_large_pages() -> Option<u64> {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    kb_field(&rollup, "AnonHugePages:")
}

/// The value of the line starting with `name` in a `/proc` text that gives it in kB, in bytes.
fn kb_field(text: &str, name: &str) -> Option<u64> {
    Some(proc_field(text, name)? * 1024)
}

/// The number on the line starting with `name` in a `/proc` text (`/proc/meminfo`, `/proc/<pid>/status`), its
/// unit (`kB`), if any, left off.
pub(crate) fn proc_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    line[name.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// `VmRSS` and `VmHWM` (the high-water mark) of a `/proc/<pid>/status` text, which gives them in kB.
fn parse_status(status: &str) -> Option<Resident> {
    Some(Resident {
        now: kb_field(status, "VmRSS:")?,
        peak: kb_field(status, "VmHWM:")?,
    })
}

/// Hand back to the system the memory freed since the last collection, on every thread of the pool and this
/// one. The allocator (mimalloc, the program's) returns a freed page to the system only when the thread that
/// owns it next allocates or collects, and a step's worker threads often sleep until the step after next: at
/// 100,000 items the pages left behind by resolving alone came to hundreds of megabytes over the render's peak.
/// A collection is a walk of each thread's pages, milliseconds beside a step.
pub fn hand_back_freed() {
    let collect = || {
        // SAFETY: `mi_collect` only reads and updates the allocator's own bookkeeping for the calling thread;
        // it takes no pointer of ours, and is safe to call at any time, whichever allocator is global.
        unsafe { libmimalloc_sys::mi_collect(true) }
    };
    rayon::broadcast(|_| collect());
    collect();
}

/// Free `value` on a thread of its own, never waited for: a large model or map (hundreds of thousands of
/// allocations) keeps a core busy while it is freed, and what follows need not wait for that. Should no thread
/// start, it is freed here.
pub fn free_beside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

/// Whether this process ends as soon as its one build is done ([`ends_after_one_build`]).
static ENDS_AFTER_ONE_BUILD: AtomicBool = AtomicBool::new(false);
/// Whether what the build lets go of is left for the process's end to free ([`plenty_of_memory`]).
static LEFT_TO_EXIT: AtomicBool = AtomicBool::new(false);

/// Said by a command whose process ends as soon as its one build is done (`ludotheca build`; not the preview
/// server, which builds again and again, nor a test that builds many times).
pub fn ends_after_one_build() {
    ENDS_AFTER_ONE_BUILD.store(true, Ordering::Relaxed);
}

/// Said by a build that found its catalog small enough for memory to be plentiful: if the process ends after
/// it, what the build lets go of from here on ([`let_go`]) is left for the process's end, when the system takes
/// the whole of its memory back at once.
pub fn plenty_of_memory() {
    if ENDS_AFTER_ONE_BUILD.load(Ordering::Relaxed) {
        LEFT_TO_EXIT.store(true, Ordering::Relaxed);
    }
}

/// Whether what is let go of is left for the process's end ([`plenty_of_memory`]).
pub fn left_to_exit() -> bool {
    LEFT_TO_EXIT.load(Ordering::Relaxed)
}

/// Let go of `value`, a large model or map: left for the process's end to free when [`left_to_exit`], freed on
/// a thread of its own ([`free_beside`]) otherwise. A thread freeing beside the build is a third thread on the
/// build's cores, and slows the two of the pool by more than the freeing takes: at 10,000 items, the render of
/// a rebuild in a new process lost 5-20 ms to it, and leaving the model, the games and the names to the
/// process's end costs about 10 MB more at the peak of a rebuild and of a full build.
pub fn let_go<T: Send + 'static>(value: T) {
    let_go_when(value, left_to_exit());
}

fn let_go_when<T: Send + 'static>(value: T, left: bool) {
    if left {
        std::mem::forget(value);
    } else {
        free_beside(value);
    }
}

/// The allocator's option `mi_option_purge_delay`, numbered as in its header (the same in its versions 2 and
/// 3); the binding names no constant for it.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// For a process that builds again and again (the preview server): memory freed stays with the allocator for
/// the next build, instead of going back to the system after 10 ms and being faulted in again, page by zeroed
/// page, by the next build. At 10,000 items that was a third of the load step of every rebuild after an edit.
/// The process then holds about its peak between builds (at 10,000 items 670 MB, against a peak of 600 MB
/// with the memory given back). Also for a process about to end: the allocator, as it exits, would otherwise
/// hand back every freed page first (`madvise`, each call interrupting the other cores to flush their page
/// tables), for nothing.
pub fn keep_freed() {
    // SAFETY: setting an option takes no pointer of ours; mimalloc reads this one at each purge it considers.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value that says when it is dropped.
    struct Told(std::sync::Arc<AtomicBool>);

    impl Drop for Told {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[test]
    fn what_is_let_go_is_freed_beside_unless_left_to_the_processs_end() {
        let freed = std::sync::Arc::new(AtomicBool::new(false));
        let_go_when(Told(std::sync::Arc::clone(&freed)), true);
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !freed.load(Ordering::SeqCst),
            "a value left to the end was freed"
        );

        let freed = std::sync::Arc::new(AtomicBool::new(false));
        let_go_when(Told(std::sync::Arc::clone(&freed)), false);
        let waited = std::time::Instant::now();
        while !freed.load(Ordering::SeqCst) {
            assert!(
                waited.elapsed() < std::time::Duration::from_secs(10),
                "a value let go was never freed"
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn reads_the_kernels_fields_in_kilobytes() {
        let status = "Name:\tludotheca\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t3\n";
        assert_eq!(
            parse_status(status),
            Some(Resident {
                now: 100 << 20,
                peak: 200 << 20
            })
        );
        assert_eq!(parse_status("Name:\tx\nVmRSS:\t1 kB\n"), None);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn this_process_holds_some_memory_and_never_more_than_its_peak() {
        let r = resident().expect("Linux has /proc/self/status");
        assert!(r.now > 0 && r.now <= r.peak, "{r:?}");
    }
}
