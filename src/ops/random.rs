//! Random ops: `RandomUniform`, `RandomStandardNormal`, `TruncatedNormal`.
//!
//! The generator is Philox4x32-10 (Salmon et al., "Parallel random numbers:
//! as easy as 1, 2, 3", SC'11), the counter-based generator TensorFlow uses:
//! block `i` of four 32-bit words is a pure function of the key and `i`, so
//! threads fill disjoint parts of a tensor and the values do not depend on
//! how the work was split. As in TensorFlow, `seed` is the key and `seed2`
//! the high half of the counter.
//!
//! Seeding follows the brief rather than TensorFlow's kernel cache: a nonzero
//! `seed` or `seed2` gives the same values on every call, in every session;
//! `seed = seed2 = 0` draws fresh seeds for each call.

use super::{KernelOutputs, outputs};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use super::parallel::{par_chunks, threads, worth_threads};
use super::{Kernel, OpContext, OpDef, Registry, int_values};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::{Tensor, num_elements};

/// A random tensor of shape `shape` (seeded by attributes).
const fn random(name: &'static str, kernel: Kernel) -> OpDef {
    OpDef::new(name, &["shape"], &["output"], kernel).attrs(&["dtype", "seed", "seed2"])
}

pub(super) fn register(r: &mut Registry) {
    r.add([
        random("RandomUniform", random_uniform),
        random("RandomStandardNormal", random_standard_normal),
        random("TruncatedNormal", truncated_normal),
    ]);
}

// ---------------------------------------------------------------------------
// Philox4x32-10.

const MUL: [u32; 2] = [0xD251_1F53, 0xCD9E_8D57];
const WEYL: [u32; 2] = [0x9E37_79B9, 0xBB67_AE85];

/// A keyed Philox stream: `block(i)` is the `i`-th output block.
#[derive(Clone, Copy)]
struct Philox {
    key: [u32; 2],
    hi: [u32; 2],
}

impl Philox {
    fn new(seed: u64, seed2: u64) -> Philox {
        Philox {
            key: [seed as u32, (seed >> 32) as u32],
            hi: [seed2 as u32, (seed2 >> 32) as u32],
        }
    }

    #[inline]
    fn block(self, i: u64) -> [u32; 4] {
        let mut c = [i as u32, (i >> 32) as u32, self.hi[0], self.hi[1]];
        let mut k = self.key;
        for round in 0..10 {
            if round > 0 {
                k[0] = k[0].wrapping_add(WEYL[0]);
                k[1] = k[1].wrapping_add(WEYL[1]);
            }
            let p0 = u64::from(MUL[0]) * u64::from(c[0]);
            let p1 = u64::from(MUL[1]) * u64::from(c[2]);
            c = [
                (p1 >> 32) as u32 ^ c[1] ^ k[0],
                p1 as u32,
                (p0 >> 32) as u32 ^ c[3] ^ k[1],
                p0 as u32,
            ];
        }
        c
    }
}

/// A fresh 64-bit seed: std's per-process random hash keys (drawn from the OS)
/// mixed with a counter and the clock, so that concurrent calls differ too.
fn fresh_seed() -> u64 {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    h.finish()
}

// ---------------------------------------------------------------------------
// From bits to distributions.

/// Uniform in `[0, 1)` from the top 24 bits: every value exactly representable.
#[inline]
fn unit_f32(x: u32) -> f32 {
    (x >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// Uniform in `(0, 1]`, for logarithms.
#[inline]
fn open_unit_f32(x: u32) -> f32 {
    ((x >> 8) + 1) as f32 * (1.0 / 16_777_216.0)
}

/// Uniform in `[0, 1)` from the top 53 of 64 bits.
#[inline]
fn unit_f64(hi: u32, lo: u32) -> f64 {
    (((u64::from(hi) << 32) | u64::from(lo)) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

#[inline]
fn open_unit_f64(hi: u32, lo: u32) -> f64 {
    ((((u64::from(hi) << 32) | u64::from(lo)) >> 11) + 1) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// Box-Muller: two independent standard normals from two uniforms.
#[inline]
fn box_muller_f32(a: u32, b: u32) -> [f32; 2] {
    let r = (-2.0 * open_unit_f32(a).ln()).sqrt();
    let (s, c) = (std::f32::consts::TAU * unit_f32(b)).sin_cos();
    [r * c, r * s]
}

#[inline]
fn box_muller_f64(w: [u32; 4]) -> [f64; 2] {
    let r = (-2.0 * open_unit_f64(w[0], w[1]).ln()).sqrt();
    let (s, c) = (std::f64::consts::TAU * unit_f64(w[2], w[3])).sin_cos();
    [r * c, r * s]
}

/// A distribution as values per Philox block.
trait Sampler<T>: Sync {
    /// Values produced from one block.
    const PER_BLOCK: usize;
    /// Writes up to `PER_BLOCK` values for block `i` into `out`.
    fn fill(&self, g: Philox, i: u64, out: &mut [T]);
}

struct Uniform;
impl Sampler<f32> for Uniform {
    const PER_BLOCK: usize = 4;
    fn fill(&self, g: Philox, i: u64, out: &mut [f32]) {
        for (o, w) in out.iter_mut().zip(g.block(i)) {
            *o = unit_f32(w);
        }
    }
}
impl Sampler<f64> for Uniform {
    const PER_BLOCK: usize = 2;
    fn fill(&self, g: Philox, i: u64, out: &mut [f64]) {
        let w = g.block(i);
        for (o, v) in out
            .iter_mut()
            .zip([unit_f64(w[0], w[1]), unit_f64(w[2], w[3])])
        {
            *o = v;
        }
    }
}

struct Normal;
impl Sampler<f32> for Normal {
    const PER_BLOCK: usize = 4;
    fn fill(&self, g: Philox, i: u64, out: &mut [f32]) {
        let w = g.block(i);
        let [a, b] = box_muller_f32(w[0], w[1]);
        let [c, d] = box_muller_f32(w[2], w[3]);
        for (o, v) in out.iter_mut().zip([a, b, c, d]) {
            *o = v;
        }
    }
}
impl Sampler<f64> for Normal {
    const PER_BLOCK: usize = 2;
    fn fill(&self, g: Philox, i: u64, out: &mut [f64]) {
        for (o, v) in out.iter_mut().zip(box_muller_f64(g.block(i))) {
            *o = v;
        }
    }
}

/// Attempts per element before giving up on `TruncatedNormal`; each has
/// two (double) or four (float) candidates, each rejected with probability
/// 0.0455, so running out needs odds below 1e-80.
const MAX_ATTEMPTS: u64 = 64;

/// Each element has its own run of blocks (`element * 64 + attempt`) and takes
/// the first candidate within two standard deviations.
struct Truncated;
impl Sampler<f32> for Truncated {
    const PER_BLOCK: usize = 1;
    fn fill(&self, g: Philox, i: u64, out: &mut [f32]) {
        let Some(o) = out.first_mut() else { return };
        *o = 0.0;
        for attempt in 0..MAX_ATTEMPTS {
            let w = g.block(i.wrapping_mul(MAX_ATTEMPTS).wrapping_add(attempt));
            let [a, b] = box_muller_f32(w[0], w[1]);
            let [c, d] = box_muller_f32(w[2], w[3]);
            if let Some(v) = [a, b, c, d].into_iter().find(|v| v.abs() < 2.0) {
                *o = v;
                return;
            }
        }
    }
}
impl Sampler<f64> for Truncated {
    const PER_BLOCK: usize = 1;
    fn fill(&self, g: Philox, i: u64, out: &mut [f64]) {
        let Some(o) = out.first_mut() else { return };
        *o = 0.0;
        for attempt in 0..MAX_ATTEMPTS {
            let w = g.block(i.wrapping_mul(MAX_ATTEMPTS).wrapping_add(attempt));
            if let Some(v) = box_muller_f64(w).into_iter().find(|v| v.abs() < 2.0) {
                *o = v;
                return;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Kernels.

fn random_uniform(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    generate(ctx, Uniform)
}

fn random_standard_normal(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    generate(ctx, Normal)
}

fn truncated_normal(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    generate(ctx, Truncated)
}

/// The output shape from input 0: a vector of non-negative sizes.
fn shape_input(ctx: &OpContext<'_>) -> Result<Vec<usize>> {
    let t = ctx.input(0);
    if t.rank() != 1 {
        return Err(Error::invalid(format!(
            "'shape' must be a vector but has shape {:?}",
            t.shape()
        )));
    }
    if t.num_elements() > super::shape::MAX_RANK {
        return Err(Error::invalid(format!(
            "'shape' has {} dimensions, more than the maximum of {}",
            t.num_elements(),
            super::shape::MAX_RANK
        )));
    }
    let dims = int_values(ctx, 0)?;
    let shape = dims
        .iter()
        .map(|&d| usize::try_from(d))
        .collect::<std::result::Result<Vec<usize>, _>>()
        .map_err(|_| Error::invalid(format!("'shape' {dims:?} has a negative dimension")))?;
    num_elements(&shape)?;
    Ok(shape)
}

fn generate<S: Sampler<f32> + Sampler<f64>>(ctx: &OpContext<'_>, s: S) -> Result<KernelOutputs> {
    let shape = shape_input(ctx)?;
    let dtype = ctx.attrs.required_dtype("dtype")?;
    let seed = ctx.attrs.int("seed", 0)?;
    let seed2 = ctx.attrs.int("seed2", 0)?;
    let (seed, seed2) = if seed == 0 && seed2 == 0 {
        (fresh_seed(), fresh_seed())
    } else {
        (seed as u64, seed2 as u64)
    };
    let g = Philox::new(seed, seed2);
    let out = match dtype {
        DataType::Float => fill::<f32, S>(ctx, &s, g, shape)?,
        DataType::Double => fill::<f64, S>(ctx, &s, g, shape)?,
        d => {
            return Err(Error::invalid(format!(
                "attribute 'dtype' must be FLOAT or DOUBLE but is {d}"
            )));
        }
    };
    Ok(outputs([out]))
}

fn fill<T: crate::dtype::Element, S: Sampler<T>>(
    ctx: &OpContext<'_>,
    s: &S,
    g: Philox,
    shape: Vec<usize>,
) -> Result<Tensor> {
    let n = num_elements(&shape)?;
    let mut out = ctx.alloc_initialized::<T>(n)?;
    let per = S::PER_BLOCK;
    // A Philox block plus a conversion (or a logarithm and a sine for the
    // normals) costs tens of streaming element visits.
    let parts = if worth_threads(n.saturating_mul(32)) {
        threads()
    } else {
        1
    };
    par_chunks(&mut out.data, per, parts, |start, dst| {
        let first = (start / per) as u64;
        for (i, vals) in dst.chunks_mut(per).enumerate() {
            s.fill(g, first + i as u64, vals);
        }
    });
    out.into_tensor(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known-answer vectors from the Random123 distribution (kat_vectors):
    /// philox4x32 with 10 rounds.
    #[test]
    fn philox_known_answers() {
        let zero = Philox {
            key: [0, 0],
            hi: [0, 0],
        };
        assert_eq!(
            zero.block(0),
            [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]
        );
        let ones = Philox {
            key: [u32::MAX, u32::MAX],
            hi: [u32::MAX, u32::MAX],
        };
        assert_eq!(
            ones.block(u64::MAX),
            [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
        );
        let pi = Philox {
            key: [0xa409_3822, 0x299f_31d0],
            hi: [0x1319_8a2e, 0x0370_7344],
        };
        assert_eq!(
            pi.block(0x85a3_08d3_243f_6a88),
            [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
        );
    }
}
