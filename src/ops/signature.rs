//! Output argument names of each op, as in TensorFlow's op definitions, so
//! Java can answer `Operation.outputListLength(name)`. Input names live in
//! each [`OpDef`](super::OpDef); a name ending in `[]` is a list.

/// The output arguments of the op named `op` (its canonical name), or `None`
/// for an op missing here (a test checks that none is).
pub(super) fn output_args(op: &str) -> Option<&'static [&'static str]> {
    Some(match op {
        "AddV2" | "Sub" | "Mul" | "RealDiv" | "FloorDiv" | "FloorMod" | "Pow" | "Maximum"
        | "Minimum" | "SquaredDifference" | "DivNoNan" | "Equal" | "NotEqual" | "Greater"
        | "GreaterEqual" | "Less" | "LessEqual" | "LogicalAnd" | "LogicalOr" => &["z"],
        "Neg" | "Abs" | "Sign" | "Square" | "Log" | "Log1p" | "Exp" | "Expm1" | "Sqrt"
        | "Rsqrt" | "Reciprocal" | "Sin" | "Cos" | "Tan" | "Tanh" | "Sigmoid" | "Floor"
        | "Ceil" | "Round" | "LogicalNot" | "Cast" | "ZerosLike" | "OnesLike" | "Transpose" => {
            &["y"]
        }
        "AddN" => &["sum"],
        "Cumsum" => &["out"],
        "MatMul" => &["product"],
        "Relu" | "Relu6" | "Elu" | "Selu" => &["activations"],
        "Softmax" => &["softmax"],
        "LogSoftmax" => &["logsoftmax"],
        "SoftmaxCrossEntropyWithLogits" | "SparseSoftmaxCrossEntropyWithLogits" => {
            &["loss", "backprop"]
        }
        "Split" | "Unpack" => &["output[]"],
        "OutputsForTest" => &["outputs[]"],
        "ClipByValue"
        | "Sum"
        | "Max"
        | "Min"
        | "Prod"
        | "Mean"
        | "All"
        | "Any"
        | "ArgMax"
        | "ArgMin"
        | "Const"
        | "Identity"
        | "StopGradient"
        | "Reshape"
        | "Shape"
        | "Size"
        | "Rank"
        | "Fill"
        | "ExpandDims"
        | "Squeeze"
        | "Slice"
        | "StridedSlice"
        | "ConcatV2"
        | "Pack"
        | "GatherV2"
        | "Tile"
        | "BroadcastTo"
        | "OneHot"
        | "Range"
        | "BatchMatMulV2"
        | "BatchMatMulV3"
        | "SelectV2"
        | "BiasAdd"
        | "L2Loss"
        | "RandomUniform"
        | "RandomStandardNormal"
        | "TruncatedNormal"
        | "PanicForTest" => &["output"],
        "StringJoin" | "Substr" | "StringLength" => &["output"],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::Registry;

    #[test]
    fn every_op_has_output_names_that_fit_its_output_count() {
        let r = Registry::global();
        for name in r.names() {
            let op = r.lookup(name).expect("listed names resolve");
            let outs = r.output_names(op).unwrap_or_else(|e| panic!("{name}: {e}"));
            let lists = outs.iter().filter(|n| n.ends_with("[]")).count();
            assert!(lists <= 1, "{name}: at most one list output");
            let single = outs.len() == 1 && lists == 0;
            assert_eq!(single, r.single_output(op), "{name}: {outs:?}");
        }
    }
}
