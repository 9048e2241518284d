//! `Conv2D`: a 2-D convolution (cross-correlation) of an NHWC batch with an
//! HWIO filter, as im2col + GEMM.
//!
//! The output, `[batch * out_rows * out_cols, out_depth]` row-major, is
//! the product of the patch matrix (one row per output position: the
//! window's `rows x cols x depth` input values, zero where the window
//! overhangs) and the filter, which HWIO already stores as a `[rows * cols
//! * depth, out_depth]` matrix. The patch rows are made a block at a time
//! (about a megabyte, so a block stays in cache for its product) and each
//! thread takes a band of output rows: packing and product both run on
//! every core. A 1x1 filter with unit strides and no padding needs no
//! patches: the input is the matrix. Grouped convolutions (input depth a
//! multiple of the filter's) take one product per group into the group's
//! output columns. Products run on `faer`, the crate `MatMul` uses.
//!
//! NCHW: TensorFlow's CPU kernel refuses it (Unimplemented) once the output
//! is known to be non-empty; so does this one.

use faer::linalg::matmul::matmul;
use faer::{Accum, MatMut, MatRef, Par};

use super::window::{self, Dim};
use crate::dtype::{DataType, Element};
use crate::error::{Error, Result};
use crate::memory::MemoryAccount;
use crate::ops::parallel::threads;
use crate::ops::{Attrs, KernelOutputs, OpContext, outputs};
use crate::scratch::Scratch;

/// The dtypes the convolutions take.
pub(in crate::ops) const FLOATS: &[DataType] = &[DataType::Float, DataType::Double];

/// Products of at least this many multiply-adds split across threads (as
/// `MatMul`'s do).
const PAR_MIN_MACS: usize = 1 << 21;

/// Elements of one block of patch rows (1 MiB of f32).
const BLOCK_ELEMS: usize = 1 << 18;

/// Everything about one `Conv2D` call that its shapes and attributes decide.
#[derive(Clone, Debug)]
pub(in crate::ops) struct Conv2d {
    pub nhwc: bool,
    pub batch: usize,
    pub in_rows: usize,
    pub in_cols: usize,
    pub in_depth: usize,
    pub k_rows: usize,
    pub k_cols: usize,
    pub patch_depth: usize,
    pub out_depth: usize,
    pub stride: (usize, usize),
    pub dilation: (usize, usize),
    pub rows: Dim,
    pub cols: Dim,
}

impl Conv2d {
    /// The output's shape, in the input's data format.
    pub fn out_shape(&self) -> Vec<usize> {
        let (n, h, w, c) = (self.batch, self.rows.out, self.cols.out, self.out_depth);
        if self.nhwc {
            Vec::from([n, h, w, c])
        } else {
            Vec::from([n, c, h, w])
        }
    }

    fn out_elements(&self) -> usize {
        [self.batch, self.rows.out, self.cols.out, self.out_depth]
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .unwrap_or(usize::MAX)
    }

    /// The checks TensorFlow's CPU kernel makes only when there is work: an
    /// output with elements, from an input with elements.
    pub fn check_launch(&self, filter: &[usize]) -> Result<()> {
        if !self.nhwc {
            return Err(Error::Unsupported(
                "Conv2D: the CPU kernel supports only the NHWC data format, as TensorFlow's; \
                 the op was given NCHW"
                    .into(),
            ));
        }
        if filter.contains(&0) {
            return Err(Error::invalid(format!(
                "'filter' must not have zero elements but has shape {filter:?}"
            )));
        }
        let groups = self.in_depth / self.patch_depth;
        if !self.out_depth.is_multiple_of(groups) || self.out_depth < groups {
            return Err(Error::invalid(format!(
                "the output depth {} (last dimension of 'filter', shape {filter:?}) must be a multiple of the number of groups, {groups}",
                self.out_depth
            )));
        }
        Ok(())
    }
}

/// `Conv2D`'s attribute and shape checks, in TensorFlow's order, for
/// 'input' of shape `input` and 'filter' of shape `filter`; shared with
/// build-time inference.
pub(in crate::ops) fn conv2d_geometry(
    input: &[usize],
    filter: &[usize],
    attrs: &Attrs,
) -> Result<Conv2d> {
    let nhwc = window::nhwc(attrs)?;
    let padding = window::padding(attrs, true)?;
    let explicit = window::explicit_paddings(attrs, padding, nhwc)?;
    let strides = window::four(attrs, "strides", None)?;
    let dilations = window::four(attrs, "dilations", Some([1; 4]))?;
    let (c, h, w) = if nhwc { (3, 1, 2) } else { (1, 2, 3) };
    if strides[0] != 1 || strides[c] != 1 {
        return Err(Error::invalid(format!(
            "attribute 'strides' is {strides:?}: strides in the batch and depth dimensions are not supported"
        )));
    }
    if dilations[0] != 1 || dilations[c] != 1 {
        return Err(Error::invalid(format!(
            "attribute 'dilations' is {dilations:?}: dilations in the batch and depth dimensions are not supported"
        )));
    }
    window::positive("strides", &strides)?;
    window::positive("dilations", &dilations)?;
    let [n_, in_c, in_h, in_w] = match *input {
        [a, b, c_, d] if nhwc => [a, d, b, c_],
        [a, b, c_, d] => [a, b, c_, d],
        _ => {
            return Err(Error::invalid(format!(
                "'input' must be 4-dimensional but has shape {input:?}"
            )));
        }
    };
    let &[k_h, k_w, patch_depth, out_depth] = filter else {
        return Err(Error::invalid(format!(
            "'filter' must be 4-dimensional but has shape {filter:?}"
        )));
    };
    if patch_depth == 0 {
        return Err(Error::invalid(format!(
            "the filter depth (dimension 2 of 'filter', shape {filter:?}) must be positive"
        )));
    }
    if in_c % patch_depth != 0 {
        return Err(Error::invalid(format!(
            "the input depth {in_c} ('input' has shape {input:?}) must be a multiple of the filter depth {patch_depth} ('filter' has shape {filter:?})"
        )));
    }
    let rows = window::output_dim(
        "rows",
        in_h,
        k_h,
        dilations[h],
        strides[h],
        padding,
        explicit[0],
    )?;
    let cols = window::output_dim(
        "cols",
        in_w,
        k_w,
        dilations[w],
        strides[w],
        padding,
        explicit[1],
    )?;
    Ok(Conv2d {
        nhwc,
        batch: n_,
        in_rows: in_h,
        in_cols: in_w,
        in_depth: in_c,
        k_rows: k_h,
        k_cols: k_w,
        patch_depth,
        out_depth,
        stride: (strides[h] as usize, strides[w] as usize),
        dilation: (dilations[h] as usize, dilations[w] as usize),
        rows,
        cols,
    })
}

/// Checks the dtypes: FLOAT or DOUBLE, the same for both inputs.
pub(in crate::ops) fn conv_dtype(input: DataType, filter: DataType) -> Result<DataType> {
    crate::ops::expect_dtype("input", input, FLOATS)?;
    crate::ops::same_dtype(("input", input), ("filter", filter))
}

pub(super) fn conv2d(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let (x, f) = (ctx.input(0), ctx.input(1));
    let dtype = conv_dtype(x.dtype(), f.dtype())?;
    let g = conv2d_geometry(x.shape(), f.shape(), ctx.attrs)?;
    let out = match dtype {
        DataType::Float => conv2d_typed::<f32>(ctx, &g)?,
        _ => conv2d_typed::<f64>(ctx, &g)?,
    };
    Ok(outputs([out]))
}

fn conv2d_typed<T: Gemm>(ctx: &OpContext<'_>, g: &Conv2d) -> Result<crate::tensor::Tensor> {
    let (x, f) = (ctx.input(0), ctx.input(1));
    let n = g.out_elements();
    let mut out = ctx.alloc_initialized::<T>(crate::tensor::num_elements(&g.out_shape())?)?;
    if n == 0 {
        return out.into_tensor(g.out_shape());
    }
    if x.num_elements() == 0 {
        // Every window lies in the padding.
        out.data.fill(T::default());
        return out.into_tensor(g.out_shape());
    }
    g.check_launch(f.shape())?;
    convolve(
        ctx.account(),
        g,
        x.as_slice::<T>()?,
        f.as_slice::<T>()?,
        &mut out.data,
    )?;
    out.into_tensor(g.out_shape())
}

/// Element types with a GEMM: `out = a · b` (replacing `out`).
pub(in crate::ops) trait Gemm: Element {
    fn gemm(out: MatMut<'_, Self>, a: MatRef<'_, Self>, b: MatRef<'_, Self>, par: Par);
}

macro_rules! gemm {
    ($t:ty) => {
        impl Gemm for $t {
            #[inline]
            fn gemm(out: MatMut<'_, $t>, a: MatRef<'_, $t>, b: MatRef<'_, $t>, par: Par) {
                matmul(out, Accum::Replace, a, b, 1.0, par);
            }
        }
    };
}
gemm!(f32);
gemm!(f64);

/// Writes the convolution of NHWC `xs` with HWIO `fs` into `out` (NHWC,
/// every element written).
fn convolve<T: Gemm>(
    account: &std::sync::Arc<MemoryAccount>,
    g: &Conv2d,
    xs: &[T],
    fs: &[T],
    out: &mut [T],
) -> Result<()> {
    let m = g.batch * g.rows.out * g.cols.out;
    let groups = g.in_depth / g.patch_depth;
    let oc = g.out_depth;
    let opg = oc / groups;
    let k = g.k_rows * g.k_cols * g.patch_depth;
    let macs = m.saturating_mul(k).saturating_mul(oc);
    let parallel = macs >= PAR_MIN_MACS && threads() > 1;
    let filter = MatRef::from_row_major_slice(fs, k, oc);
    let pointwise = g.k_rows == 1
        && g.k_cols == 1
        && g.stride == (1, 1)
        && g.rows.pad == 0
        && g.cols.pad == 0
        && g.rows.out == g.in_rows
        && g.cols.out == g.in_cols
        && groups == 1;
    if pointwise {
        let a = MatRef::from_row_major_slice(xs, m, k);
        let par = if parallel {
            Par::rayon(threads())
        } else {
            Par::Seq
        };
        T::gemm(MatMut::from_row_major_slice_mut(out, m, oc), a, filter, par);
        return Ok(());
    }
    // Rows of one block: about BLOCK_ELEMS patch elements, at least 16 rows.
    let block = (BLOCK_ELEMS / k.max(1)).clamp(16, m.max(16));
    let parts = if parallel {
        threads().min(m.div_ceil(block).max(1))
    } else {
        1
    };
    let band = m.div_ceil(parts);
    let mut scratch = Scratch::<T>::filled(account, parts * block.min(band) * k, T::default())?;
    let per_scratch = block.min(band) * k;
    let run = |first: usize, out_band: &mut [T], patches: &mut [T]| {
        let rows_here = out_band.len() / oc;
        let mut done = 0;
        while done < rows_here {
            let r = (rows_here - done).min(block);
            let dst = &mut out_band[done * oc..(done + r) * oc];
            for grp in 0..groups {
                let cols = &mut patches[..r * k];
                im2col(g, xs, first + done, r, grp, cols);
                let a = MatRef::from_row_major_slice(cols, r, k);
                let b = filter.subcols(grp * opg, opg);
                let o = MatMut::from_row_major_slice_mut(dst, r, oc).subcols_mut(grp * opg, opg);
                T::gemm(o, a, b, Par::Seq);
            }
            done += r;
        }
    };
    if parts <= 1 {
        run(0, out, &mut scratch);
        return Ok(());
    }
    rayon::scope(|s| {
        let bands = out
            .chunks_mut(band * oc)
            .zip(scratch.chunks_mut(per_scratch));
        for (i, (o, p)) in bands.enumerate() {
            let run = &run;
            s.spawn(move |_| run(i * band, o, p));
        }
    });
    Ok(())
}

/// Writes `count` patch rows, from output position `first` on, of group
/// `grp` into `dst` (`count x k_rows * k_cols * patch_depth`, row-major).
fn im2col<T: Element>(g: &Conv2d, xs: &[T], first: usize, count: usize, grp: usize, dst: &mut [T]) {
    let (oh, ow) = (g.rows.out, g.cols.out);
    let (kh, kw, pd, c) = (g.k_rows, g.k_cols, g.patch_depth, g.in_depth);
    let (ih, iw) = (g.in_rows as i64, g.in_cols as i64);
    let (sh, sw) = (g.stride.0 as i64, g.stride.1 as i64);
    let (dh, dw) = (g.dilation.0 as i64, g.dilation.1 as i64);
    let (pt, pl) = (g.rows.pad as i64, g.cols.pad as i64);
    let row_len = kw * pd;
    let k = kh * row_len;
    let contiguous = dw == 1 && pd == c;
    let (mut b, mut oy, mut ox) = (first / (oh * ow), (first / ow) % oh, first % ow);
    for row in dst.chunks_exact_mut(k).take(count) {
        let y0 = oy as i64 * sh - pt;
        let x0 = ox as i64 * sw - pl;
        for (ky, part) in row.chunks_exact_mut(row_len).enumerate() {
            let iy = y0 + ky as i64 * dh;
            if iy < 0 || iy >= ih {
                part.fill(T::default());
                continue;
            }
            let base = (b * g.in_rows + iy as usize) * g.in_cols;
            if contiguous && x0 >= 0 && x0 + kw as i64 <= iw {
                let s = (base + x0 as usize) * c;
                part.copy_from_slice(&xs[s..s + row_len]);
                continue;
            }
            for (kx, px) in part.chunks_exact_mut(pd).enumerate() {
                let ix = x0 + kx as i64 * dw;
                if ix < 0 || ix >= iw {
                    px.fill(T::default());
                } else {
                    let s = (base + ix as usize) * c + grp * pd;
                    px.copy_from_slice(&xs[s..s + pd]);
                }
            }
        }
        ox += 1;
        if ox == ow {
            ox = 0;
            oy += 1;
            if oy == oh {
                oy = 0;
                b += 1;
            }
        }
    }
}
