//! Unit tests of the sowing internals; the rules as a whole are tested in `engine/tests/sowing.rs`.

use super::*;
use crate::rng::Rng;

#[test]
fn numbering_runs_anticlockwise_for_both_sides() {
    let g = SowingGame::new(SowingRules::tchouba(8)).unwrap();
    // South: 1..8 along row 1 (inner) right to left, 9..16 back along row 0.
    assert_eq!(g.hole(SOUTH, 1).map(|h| (h.row, h.column)), Some((1, 7)));
    assert_eq!(g.hole(SOUTH, 8).map(|h| (h.row, h.column)), Some((1, 0)));
    assert_eq!(g.hole(SOUTH, 9).map(|h| (h.row, h.column)), Some((0, 0)));
    assert_eq!(g.hole(SOUTH, 16).map(|h| (h.row, h.column)), Some((0, 7)));
    assert!(g.hole(SOUTH, 8).unwrap().inner && !g.hole(SOUTH, 9).unwrap().inner);
    // North: the same half a turn round.
    assert_eq!(g.hole(NORTH, 1).map(|h| (h.row, h.column)), Some((2, 0)));
    assert_eq!(g.hole(NORTH, 8).map(|h| (h.row, h.column)), Some((2, 7)));
    assert_eq!(g.hole(NORTH, 9).map(|h| (h.row, h.column)), Some((3, 7)));
    assert_eq!(g.hole(NORTH, 16).map(|h| (h.row, h.column)), Some((3, 0)));
    assert_eq!(g.hole(NORTH, 17), None);
    assert_eq!(g.hole(2, 1), None);
    assert_eq!(g.holes().count(), 32);
    for h in g.holes() {
        assert_eq!(g.hole_at(h.row, h.column), Some(h));
    }
}

#[test]
fn the_index_shortcuts_match_the_geometry() {
    let g = SowingGame::new(SowingRules::tchouba(10)).unwrap();
    let n = g.n;
    for side in [SOUTH, NORTH] {
        for i in 0..n {
            let mine = g.hole(side, i as u16 + 1).unwrap();
            assert!(mine.inner);
            let opp_inner = g.hole(1 - side, (n - 1 - i) as u16 + 1).unwrap();
            assert!(opp_inner.inner && opp_inner.column == mine.column);
            let opp_outer = g
                .hole(1 - side, (2 * n - 1 - (n - 1 - i)) as u16 + 1)
                .unwrap();
            assert!(!opp_outer.inner && opp_outer.column == mine.column);
        }
    }
}

#[test]
fn whole_rounds_are_sown_at_once_like_seed_by_seed() {
    let g = SowingGame::new(SowingRules {
        relay: false,
        ..SowingRules::tchouba(4)
    })
    .unwrap();
    // 19 seeds on an 8-hole track from index 2: two full rounds (every hole +2, the start too) and 3 more.
    let mut track = [1u16, 0, 19, 0, 4, 0, 0, 0];
    let e = g.sow(&mut track, 2);
    assert_eq!(track, [3, 2, 2, 3, 7, 3, 2, 2]);
    assert_eq!(e.last, 5);
    assert!(!e.into_empty);
}

#[test]
fn extra_hole_choices_are_all_subsets() {
    let g = SowingGame::new(SowingRules::tchouba(4)).unwrap();
    // The opponent's track is 1 0 3 1 1 0 0 2: these are its occupied holes.
    let opp = [0u8, 2, 3, 4, 7];
    let fc = FileCapture {
        inner: 4,
        outer: Some(3),
        extras: 2,
    };
    let mut out = Vec::new();
    g.push_capture_moves(0, &opp, &fc, &mut out, usize::MAX)
        .unwrap();
    // Candidates are holes 0, 2, 7 (non-empty, outside the file): three pairs.
    let pairs: Vec<Vec<u16>> = out.iter().map(|m| m.extra_holes().collect()).collect();
    assert_eq!(pairs, vec![vec![1, 3], vec![1, 8], vec![3, 8]]);
    out.clear();
    let fc3 = FileCapture { extras: 3, ..fc };
    g.push_capture_moves(0, &opp, &fc3, &mut out, usize::MAX)
        .unwrap();
    assert_eq!(out.len(), 1);
    out.clear();
    let fc4 = FileCapture { extras: 0, ..fc };
    g.push_capture_moves(0, &opp, &fc4, &mut out, usize::MAX)
        .unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].extra_holes().count(), 0);
}

#[test]
fn the_start_set_matches_a_hole_by_hole_reading() {
    // Random small counts on every width, so that gula-free positions (the tchonga case, with its wrap from
    // the last hole to the first) come up often.
    let mut rng = Rng::new(3);
    for n in (4..=40).step_by(2) {
        for rules in [
            SowingRules::tchouba(n),
            SowingRules::tchouba_reconstruction(n),
        ] {
            let g = SowingGame::new(rules).unwrap();
            let len = g.len;
            for _ in 0..300 {
                let mut track = [0u16; MAX_TRACK];
                let big = rng.below(4) == 0;
                for h in &mut track[..len] {
                    *h = rng.below(if big { 4 } else { 2 }) as u16;
                }
                let min = g.rules.min_seeds_to_start;
                let gula = track[..len].iter().any(|&s| s >= min);
                let mut want = 0u128;
                for i in 0..len {
                    let next = (i + 1) % len;
                    let ok = track[i] >= min
                        || (g.rules.singleton_rule && !gula && track[i] == 1 && track[next] == 0);
                    want |= u128::from(ok) << i;
                }
                assert_eq!(g.start_mask(&track), want, "{:?}", &track[..len]);
            }
        }
    }
}
