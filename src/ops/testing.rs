//! Ops that exist only for tests (Rust unit tests and the `testing` feature,
//! which the Java tests' build of the library turns on; the published library
//! has none of them): a kernel that panics, and one whose number of outputs
//! depends on its input.

use super::{KernelOutputs, OpContext, OpDef, Registry};
use crate::bail;
use crate::error::Result;

pub(super) fn register(r: &mut Registry) {
    r.add([
        OpDef::new("PanicForTest", &["x"], &["output"], panic_for_test)
            .attrs(&["message"])
            .test_only(),
        OpDef::new("OutputsForTest", &["n"], &["outputs[]"], outputs_for_test).test_only(),
    ]);
}

/// Panics with attribute `message` (default "kernel panic on purpose"), after
/// allocating an output that the unwinding must give back.
fn panic_for_test(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let message = ctx
        .attrs
        .string("message")?
        .unwrap_or("kernel panic on purpose");
    let _half_built = ctx.alloc::<f32>(1024)?;
    panic!("{message}")
}

/// `n` outputs (a scalar INT32 input, 0 to 16), each the input itself.
fn outputs_for_test(ctx: &OpContext<'_>) -> Result<KernelOutputs> {
    let n = ctx.input(0).scalar_value::<i32>()?;
    if !(0..=16).contains(&n) {
        bail!("n must be in [0, 16] but is {n}");
    }
    Ok((0..n).map(|_| ctx.input(0).clone()).collect())
}

#[cfg(test)]
mod tests {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use crate::ops::{AttrValue, Attrs};
    use crate::session::{Session, SessionOptions};
    use crate::tensor::Tensor;

    #[test]
    fn a_kernel_panic_names_the_op_and_its_inputs_and_leaves_nothing_behind()
    -> crate::error::Result<()> {
        crate::panics::install_hook(true);
        let s = Session::new(SessionOptions::default());
        let x = s.insert(Tensor::from_slice(s.account(), &[2, 3], &[0f32; 6])?)?;
        let before = s.stats();
        let attrs = Attrs::new().with("message", AttrValue::Str("boom".into()));
        let payload = catch_unwind(AssertUnwindSafe(|| {
            s.execute_named("PanicForTest", &[x], &attrs)
        }))
        .err();
        let text = payload
            .as_ref()
            .map(|p| crate::panics::payload_text(p.as_ref()).to_string())
            .unwrap_or_default();
        assert!(
            text.starts_with(
                "PanicForTest (inputs: x FLOAT [2, 3]) panicked: boom at src/ops/testing.rs:"
            ),
            "{text}"
        );
        assert!(text.contains("Rust backtrace:"), "{text}");
        let after = s.stats();
        assert_eq!(
            (after.created, after.live_tensors, after.live_bytes),
            (before.created, before.live_tensors, before.live_bytes),
            "nothing counted, and the half-built output's bytes given back"
        );
        assert!(s.execute_named("Identity", &[x], &Attrs::new()).is_ok());
        Ok(())
    }
}
