//! A tiny deterministic random number generator for playouts and property tests, so neither needs a
//! dependency and runs repeat exactly from a seed.

/// SplitMix64 (Steele, Lea and Flood 2014): one add and three xor-shift-multiplies per number, passes the usual
/// statistical batteries, and any seed (even 0) is fine.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0). Uses the high half of a 64x64 multiply (Lemire's method without the
    /// rejection step): the bias is below n / 2^64, far under anything a playout could notice.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}
