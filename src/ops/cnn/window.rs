//! The geometry sliding-window ops share (`Conv2D`, `DepthwiseConv2dNative`,
//! `MaxPool`, `AvgPool`): their `strides`, `ksize`, `dilations`, `padding`,
//! `explicit_paddings` and `data_format` attributes, and the output size
//! and leading padding of one spatial dimension, computed as TensorFlow's
//! `GetWindowedOutputSize` does (SAME pads `max(0, (out - 1) * stride +
//! effective_window - in)` with the odd element at the end).

use super::super::Attrs;
use crate::error::{Error, Result};

/// Every window size, stride, dilation and explicit padding is at most this
/// (TensorFlow keeps them in 32-bit ints), so the index arithmetic of the
/// kernels cannot overflow.
const MAX_WINDOW_ATTR: i64 = i32::MAX as i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::ops) enum Padding {
    Same,
    Valid,
    Explicit,
}

/// Attribute `padding` (required): `"SAME"`, `"VALID"`, and `"EXPLICIT"`
/// where `explicit` says it is allowed.
pub(in crate::ops) fn padding(attrs: &Attrs, explicit: bool) -> Result<Padding> {
    let allowed = if explicit {
        "\"SAME\", \"VALID\" or \"EXPLICIT\""
    } else {
        "\"SAME\" or \"VALID\""
    };
    match attrs.string("padding")? {
        None => Err(Error::invalid(format!(
            "attribute 'padding' is required ({allowed})"
        ))),
        Some("SAME") => Ok(Padding::Same),
        Some("VALID") => Ok(Padding::Valid),
        Some("EXPLICIT") if explicit => Ok(Padding::Explicit),
        Some(other) => Err(Error::invalid(format!(
            "attribute 'padding' must be {allowed} but is \"{}\"",
            crate::alloc::quoted(other.as_bytes())
        ))),
    }
}

/// Attribute `data_format`: true for `"NHWC"` (the default), false for
/// `"NCHW"`.
pub(in crate::ops) fn nhwc(attrs: &Attrs) -> Result<bool> {
    match attrs.string("data_format")? {
        None | Some("NHWC") => Ok(true),
        Some("NCHW") => Ok(false),
        Some(other) => Err(Error::invalid(format!(
            "attribute 'data_format' must be \"NHWC\" or \"NCHW\" but is \"{}\"",
            crate::alloc::quoted(other.as_bytes())
        ))),
    }
}

/// A four-entry `list(int)` attribute (`strides`, `ksize`, `dilations`),
/// required when `default` is `None`; each entry in `1..=2^31-1`.
pub(in crate::ops) fn four(
    attrs: &Attrs,
    name: &str,
    default: Option<[i64; 4]>,
) -> Result<[i64; 4]> {
    let v = match (attrs.ints(name)?, default) {
        (Some(v), _) => v,
        (None, Some(d)) => return Ok(d),
        (None, None) => {
            return Err(Error::invalid(format!(
                "attribute '{name}' is required (4 entries)"
            )));
        }
    };
    let four: [i64; 4] = v.try_into().map_err(|_| {
        Error::invalid(format!(
            "attribute '{name}' must specify 4 dimensions but has {} entries",
            v.len()
        ))
    })?;
    Ok(four)
}

/// Checks that each entry of attribute `name` is in `1..=2^31-1`.
pub(in crate::ops) fn positive(name: &str, v: &[i64]) -> Result<()> {
    if let Some(bad) = v.iter().find(|&&x| !(1..=MAX_WINDOW_ATTR).contains(&x)) {
        return Err(Error::invalid(format!(
            "attribute '{name}' is {v:?}: each entry must be in [1, {MAX_WINDOW_ATTR}], not {bad}"
        )));
    }
    Ok(())
}

/// Attribute `explicit_paddings` for `padding`: 8 non-negative entries
/// (before and after, per dimension in `data_format` order), zero for the
/// batch and channel dimensions, when the padding is EXPLICIT; empty
/// otherwise. Returns the (before, after) padding of the two spatial
/// dimensions.
pub(in crate::ops) fn explicit_paddings(
    attrs: &Attrs,
    padding: Padding,
    nhwc: bool,
) -> Result<[(usize, usize); 2]> {
    let v = attrs.ints("explicit_paddings")?.unwrap_or(&[]);
    if padding != Padding::Explicit {
        if !v.is_empty() {
            return Err(Error::invalid(format!(
                "attribute 'explicit_paddings' must be empty if 'padding' is not \"EXPLICIT\", but is {v:?}"
            )));
        }
        return Ok([(0, 0); 2]);
    }
    if v.len() != 8 {
        return Err(Error::invalid(format!(
            "attribute 'explicit_paddings' must have 8 entries with \"EXPLICIT\" padding, but is {v:?}"
        )));
    }
    if let Some(bad) = v.iter().find(|&&p| !(0..=MAX_WINDOW_ATTR).contains(&p)) {
        return Err(Error::invalid(format!(
            "attribute 'explicit_paddings' is {v:?}: each entry must be in [0, {MAX_WINDOW_ATTR}], not {bad}"
        )));
    }
    let (n, c, h, w) = if nhwc { (0, 3, 1, 2) } else { (0, 1, 2, 3) };
    if v[2 * n] != 0 || v[2 * n + 1] != 0 || v[2 * c] != 0 || v[2 * c + 1] != 0 {
        return Err(Error::invalid(format!(
            "attribute 'explicit_paddings' is {v:?}: nonzero padding in the batch or depth dimensions is not supported"
        )));
    }
    let pair = |d: usize| (v[2 * d] as usize, v[2 * d + 1] as usize);
    Ok([pair(h), pair(w)])
}

/// One spatial dimension of a window op's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::ops) struct Dim {
    /// The output size.
    pub out: usize,
    /// Padding before the first input element (the window of output 0
    /// starts at input `-pad`).
    pub pad: usize,
}

/// Output size and leading padding of a spatial dimension of size `input`
/// under a window of `window` elements, `dilation` apart, moved by
/// `stride`; `explicit` is the (before, after) padding for EXPLICIT.
/// `what` names the dimension ("rows", "cols") in errors.
pub(in crate::ops) fn output_dim(
    what: &str,
    input: usize,
    window: usize,
    dilation: i64,
    stride: i64,
    padding: Padding,
    explicit: (usize, usize),
) -> Result<Dim> {
    // i128: sizes, windows and attributes are each at most 2^63, so no
    // product or sum below overflows.
    let (i, k, d, s) = (
        input as i128,
        window as i128,
        dilation as i128,
        stride as i128,
    );
    let effective = (k - 1) * d + 1;
    let (out, pad) = match padding {
        // Division truncates toward zero, as TensorFlow's does: a window
        // slightly larger than the input gives an empty output, not an error.
        Padding::Valid => ((i - effective + s) / s, 0),
        Padding::Explicit => {
            let (b, a) = (explicit.0 as i128, explicit.1 as i128);
            ((i + b + a - effective + s) / s, b)
        }
        Padding::Same => {
            let out = (i + s - 1) / s;
            let needed = ((out - 1) * s + effective - i).max(0);
            (out, needed / 2)
        }
    };
    if out < 0 {
        return Err(Error::invalid(format!(
            "computed output size of the {what} would be negative: {out} (input size {input}, effective window size {effective}, stride {stride})"
        )));
    }
    // The kernels index with `out * stride + window * dilation - pad` in
    // i64; keep every term well inside it.
    let limit = 1i128 << 62;
    if out > limit || effective > limit || pad > limit || out * s > limit {
        return Err(Error::invalid(format!(
            "the {what}' window is too large: input size {input}, effective window size {effective}, stride {stride}"
        )));
    }
    Ok(Dim {
        out: out as usize,
        pad: pad as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_sizes_follow_tensorflow() {
        let d =
            |i, k, dil, s, p| output_dim("rows", i, k, dil, s, p, (0, 0)).map(|d| (d.out, d.pad));
        assert_eq!(d(5, 3, 1, 1, Padding::Valid), Ok((3, 0)));
        assert_eq!(d(5, 3, 1, 2, Padding::Valid), Ok((2, 0)));
        assert_eq!(d(5, 3, 1, 2, Padding::Same), Ok((3, 1)));
        assert_eq!(d(6, 3, 1, 2, Padding::Same), Ok((3, 0)));
        assert_eq!(d(4, 4, 1, 1, Padding::Same), Ok((4, 1)));
        assert_eq!(d(5, 3, 2, 1, Padding::Valid), Ok((1, 0)));
        // Truncation toward zero: (1 - 4 + 2) / 2 == 0.
        assert_eq!(d(1, 4, 1, 2, Padding::Valid), Ok((0, 0)));
        assert!(d(1, 5, 1, 1, Padding::Valid).is_err());
        let e = output_dim("cols", 5, 3, 1, 1, Padding::Explicit, (1, 2));
        assert_eq!(e, Ok(Dim { out: 6, pad: 1 }));
    }
}
