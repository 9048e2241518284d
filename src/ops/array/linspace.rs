//! `LinSpace`: `num` evenly spaced values from `start` to `stop`, both
//! included (the last is `stop` itself, not a sum of steps).

use crate::bail;
use crate::dtype::DataType;
use crate::error::Result;
use crate::ops::shape::check_scalar;
use crate::ops::{KernelOutputs, OpContext, int_values, outputs};

pub(super) fn lin_space(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let dtype = ctx.same_dtype(0, 1)?;
    for i in 0..3 {
        check_scalar(ctx.arg_name(i), ctx.input(i).shape())?;
    }
    ctx.expect_dtype(0, &[DataType::Float, DataType::Double])?;
    let num = int_values(ctx, 2)?.first().copied().unwrap_or(0);
    let Ok(n) = usize::try_from(num) else {
        bail!("input 'num' = {num} must be positive");
    };
    if n == 0 {
        bail!("input 'num' = 0 must be positive");
    }
    let out = match dtype {
        DataType::Float => {
            let (a, b) = (
                ctx.input(0).scalar_value::<f32>()?,
                ctx.input(1).scalar_value::<f32>()?,
            );
            let step = if n > 1 { (b - a) / (n - 1) as f32 } else { 0.0 };
            ctx.collect(
                Vec::from([n]),
                (0..n).map(|i| {
                    if i + 1 == n && n > 1 {
                        b
                    } else {
                        a + step * i as f32
                    }
                }),
            )?
        }
        _ => {
            let (a, b) = (
                ctx.input(0).scalar_value::<f64>()?,
                ctx.input(1).scalar_value::<f64>()?,
            );
            let step = if n > 1 { (b - a) / (n - 1) as f64 } else { 0.0 };
            ctx.collect(
                Vec::from([n]),
                (0..n).map(|i| {
                    if i + 1 == n && n > 1 {
                        b
                    } else {
                        a + step * i as f64
                    }
                }),
            )?
        }
    };
    Ok(outputs([out]))
}
