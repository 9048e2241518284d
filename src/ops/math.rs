//! Element-wise arithmetic: binary ops with broadcasting, unary ops, AddN, Cumsum.

use super::broadcast::binary_map;
use super::{OpContext, OpDef, Registry};
use crate::dtype::DataType;
use crate::error::Result;
use crate::tensor::Tensor;

pub(super) fn register(r: &mut Registry) {
    r.add(
        OpDef {
            name: "AddV2",
            inputs: &["x", "y"],
            attrs: &[],
            kernel: add,
        },
        &["Add"],
    );
}

fn add(ctx: &OpContext<'_>) -> Result<Vec<Tensor>> {
    let dtype = ctx.same_dtype(0, 1)?;
    let (x, y) = (ctx.input(0), ctx.input(1));
    let out = match dtype {
        DataType::Float => binary_map(ctx, x, y, |a: f32, b: f32| a + b)?,
        DataType::Double => binary_map(ctx, x, y, |a: f64, b: f64| a + b)?,
        DataType::Int32 => binary_map(ctx, x, y, |a: i32, b: i32| a.wrapping_add(b))?,
        DataType::Int64 => binary_map(ctx, x, y, |a: i64, b: i64| a.wrapping_add(b))?,
        DataType::UInt8 => binary_map(ctx, x, y, |a: u8, b: u8| a.wrapping_add(b))?,
        DataType::Bool => return Err(ctx.unsupported_dtype(0)),
    };
    Ok(vec![out])
}
