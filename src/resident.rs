//! How much memory this process holds, as the kernel counts it: what `--timings` prints after each step, so
//! that an archivist whose catalog grows can see which step needs the memory, and a benchmark can report it
//! without a tool around the program.

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

/// `VmRSS` and `VmHWM` (the high-water mark) of a `/proc/<pid>/status` text, which gives them in kB.
fn parse_status(status: &str) -> Option<Resident> {
    let field = |name: &str| {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some(Resident {
        now: field("VmRSS:")?,
        peak: field("VmHWM:")?,
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
