//! SHA-1 (FIPS 180-4), small and dependency-free: the `IrSha1` observation
//! only needs a stable fingerprint of the program text, not a secure hash.

/// An incremental SHA-1 hasher.
#[derive(Clone)]
pub struct Sha1 {
    state: [u32; 5],
    /// Bytes of the current, partly filled 64-byte block.
    block: [u8; 64],
    block_len: usize,
    /// Total message length in bytes.
    length: u64,
}

impl Default for Sha1 {
    fn default() -> Self {
        Sha1::new()
    }
}

impl Sha1 {
    pub fn new() -> Sha1 {
        Sha1 {
            state: [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0],
            block: [0; 64],
            block_len: 0,
            length: 0,
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        self.length = self.length.wrapping_add(data.len() as u64);
        if self.block_len > 0 {
            let take = (64 - self.block_len).min(data.len());
            self.block[self.block_len..self.block_len + take].copy_from_slice(&data[..take]);
            self.block_len += take;
            data = &data[take..];
            if self.block_len < 64 {
                return;
            }
            let block = self.block;
            compress(&mut self.state, &block);
            self.block_len = 0;
        }
        let mut chunks = data.chunks_exact(64);
        for chunk in &mut chunks {
            let mut block = [0u8; 64];
            block.copy_from_slice(chunk);
            compress(&mut self.state, &block);
        }
        let rest = chunks.remainder();
        self.block[..rest.len()].copy_from_slice(rest);
        self.block_len = rest.len();
    }

    pub fn finish(mut self) -> [u8; 20] {
        let bit_length = self.length.wrapping_mul(8);
        // Padding: a 1 bit, zeros up to 56 mod 64, then the 64-bit length.
        let mut padding = [0u8; 72];
        padding[0] = 0x80;
        let zeros = (55usize.wrapping_sub(self.block_len)) % 64;
        padding[1 + zeros..9 + zeros].copy_from_slice(&bit_length.to_be_bytes());
        let length = self.length;
        self.update(&padding[..9 + zeros]);
        self.length = length;
        debug_assert_eq!(self.block_len, 0);
        let mut digest = [0u8; 20];
        for (out, word) in digest.chunks_exact_mut(4).zip(self.state) {
            out.copy_from_slice(&word.to_be_bytes());
        }
        digest
    }
}

/// The SHA-1 digest of `data`.
pub fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h = Sha1::new();
    h.update(data);
    h.finish()
}

/// A digest as 40 lowercase hex digits.
pub fn to_hex(digest: &[u8; 20]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(40);
    for &b in digest {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 15)] as char);
    }
    s
}

fn compress(state: &mut [u32; 5], block: &[u8; 64]) {
    // The message schedule kept as a rolling window of 16 words.
    let mut w = [0u32; 16];
    for (i, word) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    // One loop per group of rounds, so each has a fixed function and
    // constant, and no branch, for the compiler to unroll.
    macro_rules! round {
        ($wi:expr, $k:expr, |$x:ident, $y:ident, $z:ident| $f:expr) => {{
            let wi = $wi;
            let ($x, $y, $z) = (b, c, d);
            let t = a.rotate_left(5).wrapping_add($f).wrapping_add(e).wrapping_add($k).wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }};
    }
    // Word `i` (16 and up) of the schedule, computed in place.
    macro_rules! next_word {
        ($i:expr) => {{
            let i = $i;
            let x = (w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15]).rotate_left(1);
            w[i & 15] = x;
            x
        }};
    }
    const K: [u32; 4] = [0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xCA62_C1D6];
    for wi in w {
        round!(wi, K[0], |x, y, z| (x & y) | (!x & z));
    }
    for i in 16..20 {
        round!(next_word!(i), K[0], |x, y, z| (x & y) | (!x & z));
    }
    for i in 20..40 {
        round!(next_word!(i), K[1], |x, y, z| x ^ y ^ z);
    }
    for i in 40..60 {
        round!(next_word!(i), K[2], |x, y, z| (x & y) | (x & z) | (y & z));
    }
    for i in 60..80 {
        round!(next_word!(i), K[3], |x, y, z| x ^ y ^ z);
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn hex(data: &[u8]) -> String {
        to_hex(&sha1(data))
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn standard_test_vectors() {
        assert_eq!(hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(
            hex(b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
            "a49b2446a02c645bf419f995b67091253a04a259"
        );
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn a_million_a() {
        let mut h = Sha1::new();
        let chunk = [b'a'; 1000];
        for _ in 0..1000 {
            h.update(&chunk);
        }
        assert_eq!(to_hex(&h.finish()), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    }

    #[wasm_bindgen_test(unsupported = test)]
    fn incremental_updates_match_one_shot_at_every_split() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 7 + 3) as u8).collect();
        let whole = sha1(&data);
        for split in [0, 1, 55, 56, 63, 64, 65, 119, 128, 200] {
            let mut h = Sha1::new();
            h.update(&data[..split]);
            h.update(&data[split..]);
            assert_eq!(h.finish(), whole, "split at {split}");
        }
        // Lengths around the padding boundary hash differently from each other.
        let digests: std::collections::HashSet<_> = (50..70).map(|n| sha1(&data[..n])).collect();
        assert_eq!(digests.len(), 20);
    }
}
