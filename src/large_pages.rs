//! Whether this process takes its memory from the kernel in large pages (2 MiB on most machines) or in small
//! ones (4 KiB).
//!
//! A build in a new process touches each page of its memory for the first time, and the kernel zeroes and maps
//! every page on a fault of its own: about 55,000 faults in a rebuild at 10,000 items, a sixth of its CPU. In
//! large pages the same rebuild takes about 600 faults and 8% less time. The price is paid by the kernel: a
//! large page needs a free, aligned block of its size, and when none is free the kernel compacts memory while
//! the process waits. So large pages are kept only where the kernel has far more memory free in such blocks
//! than the build will hold at its peak: twice what the previous build into the same folder held at its peak,
//! which its manifest records ([`crate::site::output::recorded`]), or, where none is recorded (a first
//! build, a catalog checked without a site), twice the peak of the largest build measured ([`WANTED_FREE`]).
//! Memory free in large blocks comes and goes with what else the machine runs: one evening it held 3.1 GiB of
//! its 20 GiB free in such blocks, and rebuilds at 10,000 items (a peak of 290 MB) ran faster in large
//! pages than in the small ones the fixed 4 GiB would have chosen (5-9%).
//!
//! On a virtual machine whose host takes back the guest's free memory (a balloon that reports free pages, as
//! these machines have), a free block of 2 MiB is the very kind the host takes back, and a large page made of
//! it costs the host's work to supply again: one session measured rebuilds at 10,000 items 15% slower in large
//! pages, with 43% of their samples zeroing pages, while on other days they are 8% faster. So before keeping
//! large pages the process times one: supplied as fast as memory the host holds (a quarter of a millisecond
//! here), it keeps them; slower than [`SLOW_LARGE_PAGE`], it keeps small pages.
//!
//! One page is not enough to go by. The kernel hands out the blocks freed last first, and the balloon reports
//! a free block only once it has lain free for a while (two seconds), so the first few blocks a process takes
//! are often ones the host still holds, fast, and the rest ones it took back: one evening the first large page
//! came in 0.17 ms while most of the next 139 took about 7 ms each, up to 1.2 s for 280 MB against 0.15-0.2 s in
//! small pages. So where large pages are kept, a thread watches them for as long as the process runs
//! ([`watch`]): each time its memory has grown by [`WATCH_GROWTH`], it times one more large page, and at the
//! first slow one it turns large pages off for the rest of the process, which costs the few pages taken in
//! the meantime rather than every page.
//!
//! The allocator asks for large pages on all the memory it reserves (`MADV_HUGEPAGE`, which a system set to
//! give them only when asked honours); for small pages the process turns them off for itself (`prctl`), which
//! holds for every page touched after it. Large pages are off from before the runtime's first allocation (a
//! constructor of the program's, see `main.rs`) until the choice, made first thing in `main`.
//!
//! A machine whose host takes its free memory back does so all day, so a slow page is remembered: the manifest
//! of each build records when a large page was last found slow to supply and how long it took ([`SlowPage`]),
//! and for [`REMEMBER_SLOW`] after that the next builds into the same folder keep small pages without timing
//! one. On such a machine (7 December) each large page took 6.3-9.1 ms, the page timed first cost a build
//! about 7 ms before its work began, and a page found quick let the build take tens of megabytes of slow ones
//! before the watch saw one: rebuilds at 10,000 items took 337 ms (314-360) choosing each time, 308 ms (303-321)
//! in small pages. Once the time has passed, a page is timed again, so a machine whose pages have become quick
//! gets large pages back.
//!
//! `LUDOTHECA_LARGE_PAGES=1` keeps large pages whatever is free, `=0` turns them off; any other value is
//! ignored, as if unset.

#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

use std::path::Path;
use std::sync::OnceLock;

/// The memory free in large blocks below which small pages are kept when no previous build's peak is known:
/// over twice the peak of the largest build measured (1.7 GB, a rebuild at 100,000 items), so that a build
/// never runs the free blocks out and waits on the kernel compacting memory (two rebuilds at 100,000 items in
/// large pages, with about 2 GB free, took 22 s instead of 5, while the kernel stalled some 900 times to
/// compact it).
pub const WANTED_FREE: u64 = 4 << 30;

/// The least memory free in large blocks that large pages are kept with, however small the previous build: the
/// rest of the machine's programs may want the last large blocks too.
const LEAST_WANTED: u64 = 256 << 20;

/// How much memory must be free in large blocks for large pages, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// Twice the peak the previous build into the same folder recorded (at least [`LEAST_WANTED`]).
    TwicePrevious { peak: u64 },
    /// [`WANTED_FREE`]: no previous build's peak is known.
    Largest,
}

impl Wanted {
    /// What is wanted when the previous build into the same folder held `previous_peak` bytes at its peak.
    pub fn after(previous_peak: Option<u64>) -> Wanted {
        match previous_peak {
            Some(peak) => Wanted::TwicePrevious { peak },
            None => Wanted::Largest,
        }
    }

    pub fn bytes(self) -> u64 {
        match self {
            Wanted::TwicePrevious { peak } => peak.saturating_mul(2).max(LEAST_WANTED),
            Wanted::Largest => WANTED_FREE,
        }
    }

    fn describe(self) -> String {
        let wanted = gib(self.bytes());
        match self {
            Wanted::TwicePrevious { peak } => format!(
                "{wanted:.1} GiB wanted, twice the {} MB the previous build held at its peak",
                peak >> 20
            ),
            Wanted::Largest => {
                format!("{wanted:.1} GiB wanted, as no previous build's peak is known")
            }
        }
    }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1u32 << 30)
}

/// The time to supply one large page above which small pages are kept: about twice what 2 MiB of small pages
/// took to supply on these machines (0.65 ms), four times what a large page took when it was held by the host
/// (0.22-0.35 ms), and a third of what each cost when the host had to supply them again (3.4 ms).
const SLOW_LARGE_PAGE: std::time::Duration = std::time::Duration::from_millis(1);

/// How much the process's memory grows between two large pages timed by [`watch`]: eight large pages, so
/// that a rebuild at 10,000 items (about 280 MB) times some 17, about 0.2 ms of CPU each when the pages come
/// quickly.
const WATCH_GROWTH: u64 = 16 << 20;

/// How often [`watch`] looks at the process's memory: often enough that a build taking slow pages on two
/// threads takes only a handful before the next look, and seldom enough to cost nothing measurable (one
/// read of a small `/proc` file).
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(4);

/// After how many looks without growth [`watch`] looks 25 times less often (after about a second).
const WATCH_STILL: u32 = 250;

/// The size of a large page where the kernel does not say (x86-64's).
const LARGE_PAGE: u64 = 2 << 20;

/// For how long after a large page was found slow the builds into the same folder keep small pages without
/// timing one: long enough to cover an archivist's round of edits and rebuilds, short enough that a machine
/// whose memory is supplied quickly again soon gets large pages back, at the price of one page timed.
pub const REMEMBER_SLOW: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// A large page found slow to supply: when, in seconds since the Unix epoch, and how long it took, in
/// microseconds. A build's manifest records the last one its process knew of (see [`slow_page`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlowPage {
    pub at: u64,
    pub took: u32,
}

impl SlowPage {
    /// How long before `now` (seconds since the Unix epoch) the page was found slow, while that is within
    /// [`REMEMBER_SLOW`]; none once it is older, or when it lies in the future (a clock set back).
    fn remembered_at(self, now: u64) -> Option<u64> {
        let ago = now.checked_sub(self.at)?;
        (ago < REMEMBER_SLOW.as_secs()).then_some(ago)
    }
}

/// What the previous build into the same folder recorded that the choice goes by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Previous {
    /// The most memory it held.
    pub peak: Option<u64>,
    /// The last large page found slow, by it or by a build before it.
    pub slow: Option<SlowPage>,
}

/// Seconds since the Unix epoch by the system's clock; none before it.
fn unix_now() -> Option<u64> {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|since| since.as_secs())
}

/// How the process's pages were chosen, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Large pages: the kernel had `free` bytes free in blocks of a large page or more (and the process's
    /// memory group at least that much room), at least what was `wanted`, and supplied one in `took`
    /// microseconds.
    Large {
        free: u64,
        wanted: Wanted,
        took: u32,
    },
    /// Large pages, asked for by `LUDOTHECA_LARGE_PAGES=1`.
    LargeAsked,
    /// Small pages: only `free` bytes were free in large blocks, or only that much room was left in the
    /// process's memory group, below what was `wanted`.
    Small { free: u64, wanted: Wanted },
    /// Small pages: one large page took `took` microseconds to supply, over [`SLOW_LARGE_PAGE`].
    SmallSlow { took: u32 },
    /// Small pages, without timing a page: an earlier build into the same folder found one `slow`, `ago`
    /// seconds before, within [`REMEMBER_SLOW`].
    SmallRemembered { slow: SlowPage, ago: u64 },
    /// Small pages, asked for by `LUDOTHECA_LARGE_PAGES=0`.
    SmallAsked,
    /// Small pages: the system gives no transparent large pages (turned off, or not Linux), or no memory could
    /// be mapped to time one.
    SmallUnsupported,
    /// Small pages: the system keeps a pool of reserved large pages (`HugePages_Total`), which the allocator
    /// would take from; they are left to whatever they were reserved for.
    SmallReserved,
}

impl Choice {
    pub fn is_large(self) -> bool {
        matches!(self, Choice::Large { .. } | Choice::LargeAsked)
    }

    /// The choice and its reason, in words, for `--timings`.
    pub fn describe(self) -> String {
        match self {
            Choice::Large { free, wanted, took } => format!(
                "large ({:.1} GiB free in large blocks, {}; one supplied in {:.2} ms)",
                gib(free),
                wanted.describe(),
                f64::from(took) / 1000.0
            ),
            Choice::LargeAsked => "large (asked for by LUDOTHECA_LARGE_PAGES)".to_string(),
            Choice::Small { free, wanted } => format!(
                "small (only {:.1} GiB free in large blocks or under the memory limit, {})",
                gib(free),
                wanted.describe()
            ),
            Choice::SmallSlow { took } => format!(
                "small (a large page took {:.2} ms to supply, over {} ms)",
                f64::from(took) / 1000.0,
                SLOW_LARGE_PAGE.as_millis()
            ),
            Choice::SmallRemembered { slow, ago } => format!(
                "small (a large page took {:.2} ms to supply {ago} s ago, in an earlier build into this folder; \
                 timed again {} s after that)",
                f64::from(slow.took) / 1000.0,
                REMEMBER_SLOW.as_secs()
            ),
            Choice::SmallAsked => "small (asked for by LUDOTHECA_LARGE_PAGES)".to_string(),
            Choice::SmallUnsupported => {
                "small (the system gives no transparent large pages)".to_string()
            }
            Choice::SmallReserved => {
                "small (the system keeps a pool of reserved large pages)".to_string()
            }
        }
    }
}

static CHOSEN: OnceLock<Choice> = OnceLock::new();

/// The choice [`choose`] made, if it was called.
pub fn chosen() -> Option<Choice> {
    CHOSEN.get().copied()
}

static TURNED_SMALL: OnceLock<Turned> = OnceLock::new();

/// The slow page this process knows of: the one it timed, or the one an earlier build found and [`choose`]
/// passed on. Set once, by the choice or, where large pages were chosen, by the watch.
static SLOW_SEEN: OnceLock<SlowPage> = OnceLock::new();

/// The last large page this process knows was slow to supply, for the manifest of the build it makes to
/// record: the page timed when choosing or by the watch, or, where no page was timed, the one an earlier build
/// found, still remembered (kept with its own time, so that it is forgotten [`REMEMBER_SLOW`] after it was
/// found, however many builds pass it on).
pub fn slow_page() -> Option<SlowPage> {
    SLOW_SEEN.get().copied()
}

/// A large page that took `took` was found slow now.
fn found_slow(took: std::time::Duration) {
    if let Some(at) = unix_now() {
        let _ = SLOW_SEEN.set(SlowPage {
            at,
            took: u32::try_from(took.as_micros()).unwrap_or(u32::MAX),
        });
    }
}

/// Large pages turned off by [`watch`]: `after` the choice, a large page took `took`.
struct Turned {
    after: std::time::Duration,
    took: std::time::Duration,
}

/// The choice [`choose`] made and, where the pages were turned small later, when and why: in words, for
/// `--timings`.
pub fn described() -> Option<String> {
    let mut said = chosen()?.describe();
    if let Some(turned) = TURNED_SMALL.get() {
        said.push_str(&format!(
            ", then small from {} ms on (a large page took {:.2} ms to supply, over {} ms)",
            turned.after.as_millis(),
            turned.took.as_secs_f64() * 1000.0,
            SLOW_LARGE_PAGE.as_millis()
        ));
    }
    Some(said)
}

/// What one large page timed by [`watch`] showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timed {
    /// Supplied within [`SLOW_LARGE_PAGE`].
    Quick,
    /// Slower than that.
    Slow(std::time::Duration),
    /// Nothing to go by: no mapping could be made, or the clock could not be read.
    Unknown,
}

impl Timed {
    fn of(took: Option<std::time::Duration>) -> Timed {
        match took {
            None => Timed::Unknown,
            Some(took) if took > SLOW_LARGE_PAGE => Timed::Slow(took),
            Some(_) => Timed::Quick,
        }
    }
}

/// Watch large pages for the rest of the process, on a thread of its own (see the module's notes): small
/// pages from the first large page found slow.
fn watch() {
    #[cfg(target_os = "linux")]
    {
        let began = std::time::Instant::now();
        let (large_page, page) = (large_page_size(), page_size());
        let Ok(statm) = std::fs::File::open("/proc/self/statm") else {
            return;
        };
        let resident = move || {
            use std::os::unix::fs::FileExt;
            let mut text = [0u8; 128];
            let read = statm.read_at(&mut text, 0).ok()?;
            // "size resident shared ...", in pages.
            let pages: u64 = std::str::from_utf8(&text[..read])
                .ok()?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            pages.checked_mul(page)
        };
        // Named, so that a profile shows it as what it is.
        let _ = std::thread::Builder::new()
            .name("large-pages".into())
            .stack_size(64 << 10)
            .spawn(move || {
                let slow = watch_with(
                    resident,
                    || Timed::of(time_a_large_page(large_page)),
                    std::thread::sleep,
                );
                if let Some(took) = slow {
                    keep_small_pages();
                    found_slow(took);
                    let _ = TURNED_SMALL.set(Turned {
                        after: began.elapsed(),
                        took,
                    });
                }
            });
    }
}

/// The watch's loop, by what it is given: `resident` the process's memory now, `time` one large page timed,
/// `wait` a pause. Returns how long the first slow page took, or nothing once the memory can no longer be read.
fn watch_with(
    mut resident: impl FnMut() -> Option<u64>,
    mut time: impl FnMut() -> Timed,
    mut wait: impl FnMut(std::time::Duration),
) -> Option<std::time::Duration> {
    let mut timed_at = resident()?;
    let mut still = 0u32;
    loop {
        // A process whose memory has not grown for a while (the preview server between edits) is looked at
        // less often.
        wait(if still < WATCH_STILL {
            WATCH_EVERY
        } else {
            WATCH_EVERY * 25
        });
        let now = resident()?;
        // Memory given back lowers the mark, so that growth into it again is timed too.
        timed_at = timed_at.min(now);
        if now < timed_at.saturating_add(WATCH_GROWTH) {
            still = still.saturating_add(1);
            continue;
        }
        still = 0;
        match time() {
            Timed::Slow(took) => return Some(took),
            // A page that told nothing is timed again after as much growth as a quick one.
            Timed::Quick | Timed::Unknown => timed_at = now,
        }
    }
}

/// Choose the process's pages and tell the kernel, for a build after the `previous` one into the same folder
/// (its peak, and the last slow page it knew of): to be called as early in `main` as that is known. A second
/// call changes nothing.
pub fn choose(previous: Previous) -> Choice {
    *CHOSEN.get_or_init(|| {
        let asked = match std::env::var_os("LUDOTHECA_LARGE_PAGES") {
            Some(value) if value == "1" => Some(true),
            Some(value) if value == "0" => Some(false),
            _ => None,
        };
        let remembered = previous
            .slow
            .and_then(|slow| Some((slow, slow.remembered_at(unix_now()?)?)));
        let choice = choose_on_this_system(asked, Wanted::after(previous.peak), remembered);
        match choice {
            Choice::SmallSlow { took } => {
                found_slow(std::time::Duration::from_micros(u64::from(took)));
            }
            // A page supplied quickly says the machine supplies them quickly now: what an earlier build found
            // is forgotten.
            Choice::Large { .. } => {}
            // No page was timed (asked, too little free, or remembered): what an earlier build found still
            // holds for as long as it is remembered, whatever this build chose.
            _ => {
                if let Some((slow, _)) = remembered {
                    let _ = SLOW_SEEN.set(slow);
                }
            }
        }
        if choice.is_large() {
            allow_large_pages();
        } else {
            keep_small_pages();
        }
        // Chosen, large pages are watched; asked for (`LUDOTHECA_LARGE_PAGES=1`), they are kept whatever they
        // cost.
        if matches!(choice, Choice::Large { .. }) {
            watch();
        }
        choice
    })
}

/// The size of a large page, as the kernel gives it.
#[cfg(target_os = "linux")]
fn large_page_size() -> u64 {
    std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")
        .ok()
        .and_then(|size| size.trim().parse().ok())
        .unwrap_or(LARGE_PAGE)
}

/// The size of a small page.
#[cfg(target_os = "linux")]
fn page_size() -> u64 {
    // SAFETY: `sysconf` reads a constant of the system; it takes no pointer.
    match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        n if n > 0 => n as u64,
        _ => 4096,
    }
}

#[cfg(target_os = "linux")]
fn choose_on_this_system(
    asked: Option<bool>,
    wanted: Wanted,
    remembered: Option<(SlowPage, u64)>,
) -> Choice {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let (large_page, page) = (large_page_size(), page_size());
    let (thp, meminfo, buddyinfo) = (
        read("/sys/kernel/mm/transparent_hugepage/enabled"),
        read("/proc/meminfo"),
        read("/proc/buddyinfo"),
    );
    decide(
        asked,
        &System {
            thp: thp.as_deref(),
            meminfo: meminfo.as_deref(),
            buddyinfo: buddyinfo.as_deref(),
            page,
            large_page,
            group_room: group_room(),
        },
        wanted,
        remembered,
        // Timed as the build would get them: with large pages allowed again (the choice then settles them).
        || {
            allow_large_pages();
            time_a_large_page(large_page)
        },
    )
}

#[cfg(not(target_os = "linux"))]
fn choose_on_this_system(
    _asked: Option<bool>,
    _wanted: Wanted,
    _remembered: Option<(SlowPage, u64)>,
) -> Choice {
    Choice::SmallUnsupported
}

/// Small pages until [`choose`] decides: to be called before the runtime's first allocation (from a
/// constructor of the program's), so that what is allocated before the choice can be made (the runtime's first
/// arena, the command line parsed, which names the folder of the previous build) never lies in large pages the
/// choice then refuses. It allocates nothing.
pub fn small_pages_until_chosen() {
    if CHOSEN.get().is_none() {
        keep_small_pages();
    }
}

/// No large pages for this process from here on, even where the system gives them to every process unasked.
fn keep_small_pages() {
    set_thp_disabled(true);
}

/// Large pages for this process from here on, as the system gives them (see [`small_pages_until_chosen`]).
fn allow_large_pages() {
    set_thp_disabled(false);
}

fn set_thp_disabled(disabled: bool) {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl` with these arguments sets a flag of this process, checked when a page is faulted in, and
    // reads no memory. Each argument is passed at the width the kernel reads (the unused ones must be zero).
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(disabled),
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = disabled;
}

/// What the choice is made from, as the kernel gives it.
struct System<'a> {
    /// `/sys/kernel/mm/transparent_hugepage/enabled`: the setting in brackets, `[always]`, `[madvise]` or
    /// `[never]`.
    thp: Option<&'a str>,
    meminfo: Option<&'a str>,
    /// `/proc/buddyinfo`: per zone, the count of free blocks of each order (a block of order n is 2^n pages).
    buddyinfo: Option<&'a str>,
    page: u64,
    large_page: u64,
    /// The room left in the process's memory group and each group above it, the least of them; none when no
    /// group limits the process.
    group_room: Option<u64>,
}

/// The choice, by what is asked, what the system says, how much must be free in large blocks and the slow page
/// an earlier build found, if it is `remembered` (with how many seconds ago); `probe` times one large page (see
/// [`time_a_large_page`]), only when everything else says large pages.
fn decide(
    asked: Option<bool>,
    system: &System,
    wanted: Wanted,
    remembered: Option<(SlowPage, u64)>,
    probe: impl FnOnce() -> Option<std::time::Duration>,
) -> Choice {
    if asked == Some(false) {
        return Choice::SmallAsked;
    }
    let offered = system
        .thp
        .is_some_and(|setting| setting.contains("[always]") || setting.contains("[madvise]"));
    if !offered {
        return Choice::SmallUnsupported;
    }
    if asked == Some(true) {
        return Choice::LargeAsked;
    }
    if system
        .meminfo
        .and_then(|m| crate::resident::proc_field(m, "HugePages_Total:"))
        .is_some_and(|pool| pool > 0)
    {
        return Choice::SmallReserved;
    }
    let free = system
        .buddyinfo
        .map_or(0, |b| free_in_blocks(b, system.page, system.large_page));
    let free = free.min(system.group_room.unwrap_or(u64::MAX));
    if free < wanted.bytes() {
        return Choice::Small { free, wanted };
    }
    if let Some((slow, ago)) = remembered {
        return Choice::SmallRemembered { slow, ago };
    }
    let Some(took) = probe() else {
        return Choice::SmallUnsupported;
    };
    let micros = u32::try_from(took.as_micros()).unwrap_or(u32::MAX);
    if took > SLOW_LARGE_PAGE {
        Choice::SmallSlow { took: micros }
    } else {
        Choice::Large {
            free,
            wanted,
            took: micros,
        }
    }
}

/// How long the kernel takes to supply one large page of `size` bytes to this process: a fresh mapping, asked
/// for in large pages and touched once, then given back. None when no mapping can be made.
///
/// The time is the thread's own CPU time, not the clock's: a thread that loses its core to another while the
/// page is supplied (as [`watch`]'s does, beside a build on every core) is not charged for the wait, while the
/// time a host takes to supply the page again is charged, as the thread's (measured: 5.5-7.8 ms a page by
/// both clocks alike).
#[cfg(target_os = "linux")]
fn time_a_large_page(size: u64) -> Option<std::time::Duration> {
    let size = usize::try_from(size).ok()?;
    // Twice the size, so that a whole aligned large page lies within it.
    let len = size.checked_mul(2)?;
    // SAFETY: a fresh private anonymous mapping, written only within its bounds (at the first aligned address,
    // which lies within the first `size` bytes of it) and unmapped whole before returning; no other code
    // knows of it.
    unsafe {
        let map = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if map == libc::MAP_FAILED {
            return None;
        }
        let aligned = (map as usize).next_multiple_of(size) as *mut u8;
        libc::madvise(aligned.cast(), size, libc::MADV_HUGEPAGE);
        let began = thread_cpu_time();
        std::ptr::write_volatile(aligned, 1);
        let took = thread_cpu_time()
            .zip(began)
            .map(|(end, began)| end.saturating_sub(began));
        libc::munmap(map, len);
        took
    }
}

/// The CPU time this thread has taken so far; none where the clock cannot be read.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Option<std::time::Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` it is given, which lives on this stack.
    let read = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    read.then(|| std::time::Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// The bytes free in blocks of at least `large_page` bytes, by a `/proc/buddyinfo` text whose counts are of
/// blocks of `page << order` bytes.
fn free_in_blocks(buddyinfo: &str, page: u64, large_page: u64) -> u64 {
    let mut free = 0u64;
    for line in buddyinfo.lines() {
        // "Node 0, zone   Normal    248  17633 ...": the counts follow the zone's name.
        let Some((_, counts)) = line.split_once("zone ") else {
            continue;
        };
        for (order, count) in counts.split_whitespace().skip(1).enumerate() {
            let (Ok(count), Some(block)) = (count.parse::<u64>(), page.checked_shl(order as u32))
            else {
                break;
            };
            if block >= large_page {
                free = free.saturating_add(count.saturating_mul(block));
            }
        }
    }
    free
}

/// The room left under the memory limits of the process's control group and the groups above it, the least
/// of them; none when no group sets a limit (or none can be read).
#[cfg(target_os = "linux")]
fn group_room() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    room_in(&cgroup, &|path| {
        std::fs::read_to_string(path).ok()?.trim().parse().ok()
    })
}

/// [`group_room`] by a `/proc/<pid>/cgroup` text, reading each number with `number`: cgroup v2 (`memory.max`,
/// `memory.current`) or v1 (`memory.limit_in_bytes`, `memory.usage_in_bytes`), each group up to the root of
/// its hierarchy.
fn room_in(cgroup: &str, number: &dyn Fn(&Path) -> Option<u64>) -> Option<u64> {
    let mut room: Option<u64> = None;
    for line in cgroup.lines() {
        // "0::/path" (v2) or "4:memory:/path" (v1, the memory controller's hierarchy).
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        // A group outside the namespace's root is named through `..`: not looked for.
        if path.split('/').any(|part| part == "..") {
            continue;
        }
        let (root, limit, usage) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // v2 writes no limit as "max", which is no number; v1 as the largest page-aligned number.
        let root = Path::new(root);
        let mut folder = root.join(path.trim_start_matches('/'));
        loop {
            if let (Some(limit), Some(used)) =
                (number(&folder.join(limit)), number(&folder.join(usage)))
                && limit < 1 << 62
            {
                let here = limit.saturating_sub(used);
                room = Some(room.map_or(here, |room| room.min(here)));
            }
            if folder == root || !folder.pop() {
                break;
            }
        }
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDDYINFO: &str = "\
Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      3
Node 0, zone    DMA32     55     55     50     43     33     30     27     30     28     24    728
Node 0, zone   Normal    248  17633  30366  46259  26434  11008   4367   2540    745    206   1768
";
    const MEMINFO: &str = "MemTotal:       24730624 kB\nHugePages_Total:       0\n";
    const MADVISE: &str = "always [madvise] never\n";
    /// Free blocks of 2 and 4 MiB adding up to under 1 GiB.
    const LITTLE: &str = "Node 0, zone   Normal    248  17633  30366  46259  26434  11008   4367   2540    745    206   100\n";

    fn system<'a>(thp: &'a str, meminfo: &'a str, buddyinfo: &'a str) -> System<'a> {
        System {
            thp: Some(thp),
            meminfo: Some(meminfo),
            buddyinfo: Some(buddyinfo),
            page: 4096,
            large_page: 2 << 20,
            group_room: None,
        }
    }

    #[test]
    fn free_memory_counts_only_blocks_as_large_as_a_large_page() {
        // Orders 9 and 10 are blocks of 2 and 4 MiB: (1 + 24 + 206) of 2 MiB, (3 + 728 + 1768) of 4 MiB.
        let want = (1 + 24 + 206) * (2u64 << 20) + (3 + 728 + 1768) * (4u64 << 20);
        assert_eq!(free_in_blocks(BUDDYINFO, 4096, 2 << 20), want);
        // With large pages of 4 MiB, the 2 MiB blocks do not count.
        assert_eq!(
            free_in_blocks(BUDDYINFO, 4096, 4 << 20),
            (3 + 728 + 1768) * (4u64 << 20)
        );
        assert_eq!(free_in_blocks("garbage\n", 4096, 2 << 20), 0);
    }

    #[test]
    fn large_pages_only_where_plenty_is_free_in_large_blocks() {
        let plenty = system(MADVISE, MEMINFO, BUDDYINFO);
        let quick = || Some(std::time::Duration::from_micros(250));
        assert!(matches!(
            decide(None, &plenty, Wanted::Largest, None, quick),
            Choice::Large { free, took: 250, .. } if free > WANTED_FREE
        ));
        let always = system("[always] madvise never\n", MEMINFO, BUDDYINFO);
        assert!(decide(None, &always, Wanted::Largest, None, quick).is_large());

        let short = system(MADVISE, MEMINFO, LITTLE);
        assert!(
            matches!(decide(None, &short, Wanted::Largest, None, quick), Choice::Small { free, .. } if free < WANTED_FREE)
        );
        // Asking overrides a shortage, not a system that gives none.
        assert_eq!(
            decide(Some(true), &short, Wanted::Largest, None, quick),
            Choice::LargeAsked
        );
        let never = system("always madvise [never]\n", MEMINFO, BUDDYINFO);
        assert_eq!(
            decide(None, &never, Wanted::Largest, None, quick),
            Choice::SmallUnsupported
        );
        assert_eq!(
            decide(Some(true), &never, Wanted::Largest, None, quick),
            Choice::SmallUnsupported
        );
        assert_eq!(
            decide(Some(false), &plenty, Wanted::Largest, None, quick),
            Choice::SmallAsked
        );
    }

    /// [`watch_with`] run on memory figures in MB and scripted timings: which looks timed a page, the pauses,
    /// and what it returned.
    fn watched(
        memory: &[u64],
        timings: &[Timed],
    ) -> (
        Vec<usize>,
        Vec<std::time::Duration>,
        Option<std::time::Duration>,
    ) {
        let mut looks = memory.iter().map(|mb| mb << 20);
        let looked = std::cell::Cell::new(0);
        let mut timed = Vec::new();
        let mut script = timings.iter().copied();
        let mut pauses = Vec::new();
        let slow = watch_with(
            || {
                looked.set(looked.get() + 1);
                looks.next()
            },
            || {
                timed.push(looked.get() - 1);
                script.next().expect("timed more pages than scripted")
            },
            |pause| pauses.push(pause),
        );
        (timed, pauses, slow)
    }

    #[test]
    fn the_watch_times_a_page_at_each_growth_and_stops_at_the_first_slow_one() {
        let slow = std::time::Duration::from_micros(7000);
        // The first figure is the mark. Growth under 16 MB times nothing; at 16 MB over the mark a page is
        // timed and, quick, moves the mark; a slow one ends the watch.
        let (timed, _, found) = watched(
            &[100, 110, 116, 120, 131, 132, 200],
            &[Timed::Quick, Timed::Slow(slow)],
        );
        assert_eq!(timed, [2, 5]);
        assert_eq!(found, Some(slow));

        // Memory given back lowers the mark; a page that told nothing is timed again only after as much
        // growth as a quick one; the memory no longer read ends the watch with nothing found.
        let (timed, _, found) = watched(
            &[100, 60, 70, 76, 80, 91, 92],
            &[Timed::Unknown, Timed::Quick],
        );
        assert_eq!(timed, [3, 6]);
        assert_eq!(found, None);
        let (timed, _, found) = watched(&[], &[]);
        assert!(timed.is_empty() && found.is_none());
    }

    #[test]
    fn a_page_is_slow_only_over_the_limit() {
        let ms = |micros| Some(std::time::Duration::from_micros(micros));
        assert_eq!(Timed::of(ms(170)), Timed::Quick);
        assert_eq!(Timed::of(ms(1000)), Timed::Quick);
        assert_eq!(
            Timed::of(ms(1001)),
            Timed::Slow(std::time::Duration::from_micros(1001))
        );
        assert_eq!(Timed::of(None), Timed::Unknown);
    }

    #[test]
    fn the_watch_looks_less_often_at_memory_that_stays_still() {
        let mut still = vec![100; WATCH_STILL as usize + 3];
        still.push(200);
        still.push(200);
        let (timed, pauses, _) = watched(&still, &[Timed::Quick]);
        assert_eq!(timed, [WATCH_STILL as usize + 3]);
        let at = |n: usize| pauses[n - 1];
        assert_eq!(at(1), WATCH_EVERY);
        assert_eq!(at(WATCH_STILL as usize), WATCH_EVERY);
        assert_eq!(at(WATCH_STILL as usize + 1), WATCH_EVERY * 25);
        // Growth brings the looks back to their pace.
        assert_eq!(*pauses.last().unwrap(), WATCH_EVERY);
    }

    #[test]
    fn a_large_page_slow_to_supply_keeps_small_pages() {
        let plenty = system(MADVISE, MEMINFO, BUDDYINFO);
        let slow = || Some(std::time::Duration::from_micros(3400));
        assert_eq!(
            decide(None, &plenty, Wanted::Largest, None, slow),
            Choice::SmallSlow { took: 3400 }
        );
        // Only the free memory's choice is timed: asking skips it, and so does a shortage.
        let never_called = || -> Option<std::time::Duration> { panic!("timed a page") };
        assert_eq!(
            decide(Some(true), &plenty, Wanted::Largest, None, never_called),
            Choice::LargeAsked
        );
        let short = system(MADVISE, MEMINFO, LITTLE);
        assert!(matches!(
            decide(None, &short, Wanted::Largest, None, never_called),
            Choice::Small { .. }
        ));
    }

    #[test]
    fn a_slow_page_found_by_an_earlier_build_keeps_small_pages_for_a_while_without_timing_one() {
        let plenty = system(MADVISE, MEMINFO, BUDDYINFO);
        let never_called = || -> Option<std::time::Duration> { panic!("timed a page") };
        let slow = SlowPage {
            at: 1_000_000,
            took: 6930,
        };
        // Found a minute ago: small pages, and no page timed.
        let ago = slow
            .remembered_at(1_000_060)
            .expect("remembered a minute later");
        assert_eq!(ago, 60);
        assert_eq!(
            decide(
                None,
                &plenty,
                Wanted::Largest,
                Some((slow, ago)),
                never_called
            ),
            Choice::SmallRemembered { slow, ago: 60 }
        );
        // Asked for, large pages are kept whatever an earlier build found; a shortage is said as before.
        assert_eq!(
            decide(
                Some(true),
                &plenty,
                Wanted::Largest,
                Some((slow, ago)),
                never_called
            ),
            Choice::LargeAsked
        );
        let short = system(MADVISE, MEMINFO, LITTLE);
        assert!(matches!(
            decide(
                None,
                &short,
                Wanted::Largest,
                Some((slow, ago)),
                never_called
            ),
            Choice::Small { .. }
        ));
        // Forgotten once the time has passed, and when it lies in the future (a clock set back): a page is
        // timed again, and a quick one gives large pages back.
        let later = 1_000_000 + REMEMBER_SLOW.as_secs();
        assert_eq!(
            slow.remembered_at(later - 1),
            Some(REMEMBER_SLOW.as_secs() - 1)
        );
        assert_eq!(slow.remembered_at(later), None);
        assert_eq!(slow.remembered_at(999_999), None);
        let quick = || Some(std::time::Duration::from_micros(250));
        assert!(decide(None, &plenty, Wanted::Largest, None, quick).is_large());
        let said = Choice::SmallRemembered { slow, ago: 60 }.describe();
        assert!(
            said.starts_with(
                "small (a large page took 6.93 ms to supply 60 s ago, in an earlier build"
            ),
            "{said}"
        );
    }

    #[test]
    fn the_room_is_the_least_left_under_the_limits_of_the_group_and_those_above_it() {
        let files: std::collections::HashMap<&str, u64> = [
            // v2: the service limited to 6 GiB, 5 used; its slice to 8, 1 used; the root sets none.
            ("/sys/fs/cgroup/app.slice/build.service/memory.max", 6 << 30),
            (
                "/sys/fs/cgroup/app.slice/build.service/memory.current",
                5 << 30,
            ),
            ("/sys/fs/cgroup/app.slice/memory.max", 8 << 30),
            ("/sys/fs/cgroup/app.slice/memory.current", 1 << 30),
            // v1: no limit, written as the largest number.
            (
                "/sys/fs/cgroup/memory/job/memory.limit_in_bytes",
                9223372036854771712,
            ),
            ("/sys/fs/cgroup/memory/job/memory.usage_in_bytes", 1 << 30),
            // Where a path through `..` would lead, were it followed.
            ("/sys/fs/cgroup/../app.slice/memory.max", 1 << 20),
            ("/sys/fs/cgroup/../app.slice/memory.current", 0),
        ]
        .into_iter()
        .collect();
        let number = |path: &Path| files.get(path.to_str()?).copied();
        assert_eq!(
            room_in("0::/app.slice/build.service\n", &number),
            Some(1 << 30)
        );
        assert_eq!(room_in("4:memory:/job\n1:cpu:/job\n", &number), None);
        assert_eq!(room_in("0::/\n", &number), None);
        // A group named through `..` is not looked for.
        assert_eq!(room_in("0::/../app.slice\n", &number), None);
        assert_eq!(
            room_in("0::/app.slice/build.service\n4:memory:/job\n", &number),
            Some(1 << 30)
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_page_is_timed() {
        let took = time_a_large_page(2 << 20).expect("a mapping can be made");
        assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    }

    #[test]
    fn a_memory_group_with_little_room_or_a_reserved_pool_keeps_small_pages() {
        let mut tight = system(MADVISE, MEMINFO, BUDDYINFO);
        tight.group_room = Some(1 << 30);
        assert_eq!(
            decide(None, &tight, Wanted::Largest, None, || None),
            Choice::Small {
                free: 1 << 30,
                wanted: Wanted::Largest
            }
        );

        let pooled = system(
            MADVISE,
            "MemTotal:       24730624 kB\nHugePages_Total:      64\n",
            BUDDYINFO,
        );
        assert_eq!(
            decide(None, &pooled, Wanted::Largest, None, || None),
            Choice::SmallReserved
        );
    }

    #[test]
    fn what_must_be_free_is_twice_the_previous_builds_peak() {
        // LITTLE: 206 blocks of 2 MiB and 100 of 4 MiB free, 812 MiB in all.
        let short = system(MADVISE, MEMINFO, LITTLE);
        let quick = || Some(std::time::Duration::from_micros(250));
        let free = 812u64 << 20;
        // Too little for a build with no peak known, plenty for one whose previous build held 300 MB.
        assert_eq!(
            decide(None, &short, Wanted::after(None), None, quick),
            Choice::Small {
                free,
                wanted: Wanted::Largest
            }
        );
        let small_build = Wanted::after(Some(300 << 20));
        assert_eq!(small_build.bytes(), 600 << 20);
        assert_eq!(
            decide(None, &short, small_build, None, quick),
            Choice::Large {
                free,
                wanted: small_build,
                took: 250
            }
        );
        // A build whose previous one held 500 MB wants 1,000 MB: more than is free.
        let larger = Wanted::after(Some(500 << 20));
        assert_eq!(
            decide(None, &short, larger, None, quick),
            Choice::Small {
                free,
                wanted: larger
            }
        );
        // Twice a large build's peak may be more than the figure used when none is known: BUDDYINFO's 10.2 GiB
        // free is plenty for that figure, not for a build that held 6 GiB.
        let plenty = system(MADVISE, MEMINFO, BUDDYINFO);
        assert!(decide(None, &plenty, Wanted::Largest, None, quick).is_large());
        let huge = Wanted::after(Some(6 << 30));
        assert!(matches!(
            decide(None, &plenty, huge, None, quick),
            Choice::Small { wanted, .. } if wanted.bytes() == 12 << 30
        ));
        // However small the previous build, a floor is kept.
        assert_eq!(Wanted::after(Some(0)).bytes(), LEAST_WANTED);
        assert_eq!(Wanted::after(Some(u64::MAX)).bytes(), u64::MAX);
        // The words say what was wanted and why.
        let said = Choice::Large {
            free,
            wanted: small_build,
            took: 250,
        }
        .describe();
        assert!(
            said.contains("0.6 GiB wanted, twice the 300 MB the previous build held at its peak"),
            "{said}"
        );
        let said = Choice::Small {
            free,
            wanted: Wanted::Largest,
        }
        .describe();
        assert!(
            said.contains("4.0 GiB wanted, as no previous build's peak is known"),
            "{said}"
        );
    }
}
