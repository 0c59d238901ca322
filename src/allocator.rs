//! The program's allocator: mimalloc, asked the way its fast paths expect.
//!
//! The `mimalloc` crate's allocator passes every request on as an aligned one (`mi_malloc_aligned`), with the
//! alignment of the type, most often 8. When mimalloc cannot tell from the size alone that a block of its
//! class is aligned (a class whose size is not a power of two), and the free list at hand is empty, it asks
//! for `size + alignment - 1` bytes and aligns within them. A request of exactly a class's size (such as 48,
//! 80, 96 or 160 bytes) then lands one class up, in a block up to a third larger, and every wasted page is one
//! more that the kernel zeroes for a new process.
//!
//! Every block mimalloc hands out is aligned to at least a word (8 bytes on 64-bit systems), so a request for
//! that alignment or less is the plain `mi_malloc` of its size; only larger alignments go the aligned way.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The alignment every mimalloc block has: its size classes are whole words.
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator (see the module's notes).
pub struct Mimalloc;

// SAFETY: each method passes the request to the mimalloc function that meets it: the plain functions return
// blocks aligned to a word, which is all a layout of that alignment or less asks; larger alignments go to the
// aligned functions, which meet any power of two. Blocks from either family are freed by `mi_free`.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            if layout.align() <= WORD {
                mi::mi_malloc(layout.size()) as *mut u8
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe {
            if layout.align() <= WORD {
                mi::mi_zalloc(layout.size()) as *mut u8
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        unsafe { mi::mi_free(ptr as *mut c_void) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe {
            if layout.align() <= WORD {
                mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
            } else {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of many sizes at every alignment up to a page: each aligned as asked, writable to its end, kept
    /// through a growth and a shrink, zeroed when asked zeroed, and, up to a word's alignment, in the size class
    /// mimalloc itself gives its size.
    #[test]
    fn every_block_has_the_alignment_and_contents_asked() {
        let allocator = Mimalloc;
        let sizes = [
            1, 3, 7, 8, 9, 16, 24, 40, 48, 72, 80, 96, 100, 112, 160, 1000, 1100, 5000, 70_000,
        ];
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            // Many blocks of each, so that a size class's later pages are reached, not only its first block.
            let mut held = Vec::new();
            for round in 0..200 {
                for &size in &sizes {
                    let layout = Layout::from_size_align(size, align).expect("a valid layout");
                    let zeroed = round % 2 == 0;
                    let ptr = unsafe {
                        if zeroed {
                            allocator.alloc_zeroed(layout)
                        } else {
                            allocator.alloc(layout)
                        }
                    };
                    assert!(!ptr.is_null(), "{size} bytes at {align}");
                    assert_eq!(ptr as usize % align, 0, "{size} bytes at {align}");
                    let block = unsafe { std::slice::from_raw_parts_mut(ptr, size) };
                    if zeroed {
                        assert!(block.iter().all(|&b| b == 0), "{size} bytes at {align}");
                    }
                    for (i, b) in block.iter_mut().enumerate() {
                        *b = (i % 251) as u8;
                    }
                    held.push((ptr, layout));
                }
            }
            for &(ptr, layout) in &held {
                // In its own size class, not the next one up: what this allocator is for.
                let usable = unsafe { mi::mi_usable_size(ptr as *const c_void) };
                if align <= WORD {
                    let class = unsafe { mi::mi_good_size(layout.size()) };
                    assert_eq!(usable, class, "{} bytes at {align}", layout.size());
                }
            }
            for (ptr, layout) in held {
                let size = layout.size();
                let grown = unsafe { allocator.realloc(ptr, layout, size * 3 + 5) };
                assert_eq!(
                    grown as usize % layout.align(),
                    0,
                    "{size} bytes at {align}, grown"
                );
                let kept = unsafe { std::slice::from_raw_parts(grown, size) };
                assert!(kept.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                let grown_layout = Layout::from_size_align(size * 3 + 5, layout.align()).unwrap();
                let half = size.div_ceil(2);
                let shrunk = unsafe { allocator.realloc(grown, grown_layout, half) };
                assert_eq!(
                    shrunk as usize % layout.align(),
                    0,
                    "{size} bytes at {align}, shrunk"
                );
                let kept = unsafe { std::slice::from_raw_parts(shrunk, half) };
                assert!(kept.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                let shrunk_layout = Layout::from_size_align(half, layout.align()).unwrap();
                unsafe { allocator.dealloc(shrunk, shrunk_layout) };
            }
        }
    }
}
