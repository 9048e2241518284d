//! Einsum: every kind of equation against a brute-force reference (every
//! assignment of the labels' values, summed), ellipsis broadcasting, empty
//! dimensions, the dtypes, build-time inference, and every error case.

use std::collections::BTreeMap;

use eagerflow::ops::{Input, Meta};
use eagerflow::{AttrValue, Attrs, DataType, Registry, f16};

use crate::common::{Env, attr, close, data};

fn eq(e: &str) -> Attrs {
    attr("equation", AttrValue::Str(e.into()))
}

/// Sums of products by enumerating every assignment of the labels (no
/// ellipsis): the definition, slow and plain.
fn reference(equation: &str, operands: &[(&[usize], &[f64])]) -> (Vec<usize>, Vec<f64>) {
    let (lhs, out) = equation.split_once("->").unwrap();
    let subs: Vec<&str> = lhs.split(',').collect();
    let mut size = BTreeMap::new();
    for (s, (shape, _)) in subs.iter().zip(operands) {
        assert_eq!(s.len(), shape.len(), "{equation}");
        for (c, &d) in s.chars().zip(shape.iter()) {
            size.insert(c, d);
        }
    }
    let labels: Vec<char> = size.keys().copied().collect();
    let out_shape: Vec<usize> = out.chars().map(|c| size[&c]).collect();
    let mut result = vec![0.0; out_shape.iter().product()];
    let total: usize = labels.iter().map(|c| size[c]).product();
    let offset =
        |s: &str, value: &BTreeMap<char, usize>| s.chars().fold(0, |o, c| o * size[&c] + value[&c]);
    for mut idx in 0..total {
        let mut value = BTreeMap::new();
        for c in labels.iter().rev() {
            value.insert(*c, idx % size[c]);
            idx /= size[c];
        }
        let p: f64 = subs
            .iter()
            .zip(operands)
            .map(|(s, (_, d))| d[offset(s, &value)])
            .product();
        result[offset(out, &value)] += p;
    }
    (out_shape, result)
}

/// Runs Einsum on DOUBLE operands of the given shapes (generated data) and
/// checks it against [`reference`].
fn check(s: &Env, equation: &str, shapes: &[&[usize]]) {
    let datas: Vec<Vec<f64>> = shapes
        .iter()
        .enumerate()
        .map(|(i, sh)| data(sh.iter().product(), i + 3))
        .collect();
    let handles: Vec<u64> = shapes
        .iter()
        .zip(&datas)
        .map(|(sh, d)| s.t(sh, d))
        .collect();
    let operands: Vec<(&[usize], &[f64])> = shapes
        .iter()
        .zip(&datas)
        .map(|(sh, d)| (*sh, d.as_slice()))
        .collect();
    let (want_shape, want) = reference(equation, &operands);
    let t = s.one_list("Einsum", &handles, &[handles.len() as i32], &eq(equation));
    assert_eq!(t.shape(), want_shape.as_slice(), "{equation}");
    close(t.as_slice::<f64>().unwrap(), &want, 1e-12);
    // FLOAT too, through the same paths.
    let handles32: Vec<u64> = shapes
        .iter()
        .zip(&datas)
        .map(|(sh, d)| s.t(sh, &d.iter().map(|&v| v as f32).collect::<Vec<_>>()))
        .collect();
    let t = s.one_list(
        "Einsum",
        &handles32,
        &[handles32.len() as i32],
        &eq(equation),
    );
    assert_eq!(t.dtype(), DataType::Float);
    let got: Vec<f64> = t
        .as_slice::<f32>()
        .unwrap()
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    close(&got, &want, 1e-5);
}

#[test]
fn products_transposes_and_reductions_agree_with_the_definition() {
    let s = Env::new();
    let cases: &[(&str, &[&[usize]])] = &[
        // Matrix products, plain, transposed operands and outputs.
        ("ij,jk->ik", &[&[3, 4], &[4, 5]]),
        ("ji,jk->ik", &[&[4, 3], &[4, 5]]),
        ("ij,kj->ik", &[&[3, 4], &[5, 4]]),
        ("ij,jk->ki", &[&[3, 4], &[4, 5]]),
        // Batch products, the batch label anywhere.
        ("bij,bjk->bik", &[&[2, 3, 4], &[2, 4, 5]]),
        ("ibj,bjk->bki", &[&[3, 2, 4], &[2, 4, 5]]),
        ("bij,bkj->bik", &[&[2, 3, 4], &[2, 5, 4]]),
        // Several free and contracted labels.
        ("abcd,cdef->abef", &[&[2, 3, 4, 2], &[4, 2, 3, 2]]),
        ("abcd,dcfe->eafb", &[&[2, 3, 4, 2], &[2, 4, 3, 2]]),
        // Outer and inner products, element-wise products.
        ("i,j->ij", &[&[3], &[4]]),
        ("i,i->", &[&[5], &[5]]),
        ("ij,ij->ij", &[&[2, 3], &[2, 3]]),
        ("ij,ij->", &[&[2, 3], &[2, 3]]),
        ("ij,ji->i", &[&[3, 3], &[3, 3]]),
        // Labels only one operand has, summed first.
        ("ij,jk->i", &[&[3, 4], &[4, 5]]),
        ("ijx,jk->k", &[&[3, 4, 2], &[4, 5]]),
        ("i,j->", &[&[3], &[4]]),
        // Diagonals in a product, and scalars.
        ("ii,ij->j", &[&[3, 3], &[3, 4]]),
        ("iij,jk->ik", &[&[3, 3, 4], &[4, 2]]),
        (",->", &[&[], &[]]),
        (",ij->ij", &[&[], &[2, 3]]),
        // One operand: transposes, sums, traces, diagonals.
        ("ij->ji", &[&[3, 4]]),
        ("ijk->kij", &[&[2, 3, 4]]),
        ("ijk->jk", &[&[2, 3, 4]]),
        ("ij->", &[&[3, 4]]),
        ("ii->", &[&[4, 4]]),
        ("ii->i", &[&[4, 4]]),
        ("bii->bi", &[&[2, 3, 3]]),
        ("iji->j", &[&[3, 2, 3]]),
        ("iii->i", &[&[3, 3, 3]]),
        ("->", &[&[]]),
        ("ij->ij", &[&[2, 3]]),
        // Repeated output labels: values on a diagonal, zeros elsewhere.
        ("i->ii", &[&[3]]),
        ("ij->iji", &[&[2, 3]]),
        ("i,j->iji", &[&[2], &[3]]),
        ("ij,jk->iki", &[&[2, 3], &[3, 2]]),
    ];
    for (e, shapes) in cases {
        check(&s, e, shapes);
    }
}

#[test]
fn larger_products_run_on_the_matmul_path() {
    let s = Env::new();
    // Big enough for every core (2^21 multiply-adds) and for many small
    // products split across threads.
    check(&s, "ij,jk->ik", &[&[96, 160], &[160, 140]]);
    check(&s, "bij,bkj->bki", &[&[300, 6, 5], &[300, 7, 5]]);
}

#[test]
fn integers_wrap_as_matmul_does() {
    let s = Env::new();
    let a = s.t(&[1, 2], &[i32::MAX, 2]);
    let b = s.t(&[2, 1], &[2i32, 3]);
    let t = s.one_list("Einsum", &[a, b], &[2], &eq("ij,jk->ik"));
    assert_eq!(
        t.as_slice::<i32>().unwrap(),
        &[i32::MAX.wrapping_mul(2).wrapping_add(6)]
    );
    let x = s.t(&[2, 2], &[1i64, 2, 3, 4]);
    let t = s.one_list("Einsum", &[x], &[1], &eq("ii->"));
    assert_eq!(t.as_slice::<i64>().unwrap(), &[5]);
    let t = s.one_list("Einsum", &[x, x], &[2], &eq("ij,jk->ki"));
    assert_eq!(t.as_slice::<i64>().unwrap(), &[7, 15, 10, 22]);
}

#[test]
fn half_runs_through_float() {
    let s = Env::new();
    let h: Vec<f16> = [1.0f32, 2., 3., 4.]
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let a = s.t(&[2, 2], &h);
    let t = s.one_list("Einsum", &[a, a], &[2], &eq("ij,jk->ik"));
    assert_eq!(t.dtype(), DataType::Half);
    let got: Vec<f32> = t
        .as_slice::<f16>()
        .unwrap()
        .iter()
        .map(|v| v.to_f32())
        .collect();
    assert_eq!(got, vec![7.0, 10.0, 15.0, 22.0]);
}

#[test]
fn ellipses_broadcast_between_operands() {
    let s = Env::new();
    // [2, 1] and [3] broadcast to [2, 3]: out[p, q] = x[p, 0] · y[q].
    let xd = data(2 * 2 * 3, 1);
    let yd = data(3 * 3 * 4, 2);
    let x = s.t(&[2, 1, 2, 3], &xd);
    let y = s.t(&[3, 3, 4], &yd);
    let t = s.one_list("Einsum", &[x, y], &[2], &eq("...ij,...jk->...ik"));
    assert_eq!(t.shape(), &[2, 3, 2, 4]);
    let got = t.as_slice::<f64>().unwrap();
    for p in 0..2 {
        for q in 0..3 {
            let (_, want) = reference(
                "ij,jk->ik",
                &[
                    (&[2, 3], &xd[p * 6..p * 6 + 6]),
                    (&[3, 4], &yd[q * 12..q * 12 + 12]),
                ],
            );
            let at = (p * 3 + q) * 8;
            close(&got[at..at + 8], &want, 1e-12);
        }
    }
    // The ellipsis anywhere, on one operand only, and in the output's middle.
    let t = s.one_list("Einsum", &[x, y], &[2], &eq("...ij,...jk->i...k"));
    assert_eq!(t.shape(), &[2, 2, 3, 4]);
    let m = s.t(&[3, 4], &data(12, 5));
    let t = s.one_list("Einsum", &[x, m], &[2], &eq("...ij,jk->...ik"));
    assert_eq!(t.shape(), &[2, 1, 2, 4]);
    let t = s.one_list("Einsum", &[m, x], &[2], &eq("jk,...ij->...ki"));
    assert_eq!(t.shape(), &[2, 1, 4, 2]);
    // One operand: a batch of traces, a sum over the ellipsis's neighbour.
    let b = s.t(&[2, 3, 3], &data(18, 7));
    let t = s.one_list("Einsum", &[b], &[1], &eq("...ii->..."));
    assert_eq!(t.shape(), &[2]);
    let bd = data(18, 7);
    close(
        t.as_slice::<f64>().unwrap(),
        &[bd[0] + bd[4] + bd[8], bd[9] + bd[13] + bd[17]],
        1e-12,
    );
    let t = s.one_list("Einsum", &[b], &[1], &eq("i...->...i"));
    assert_eq!(t.shape(), &[3, 3, 2]);
    // An ellipsis that covers nothing, and one only in the output.
    let v = s.t(&[3], &[1f64, 2., 3.]);
    let t = s.one_list("Einsum", &[v, v], &[2], &eq("...i,...i->..."));
    assert_eq!(
        (t.shape(), t.as_slice::<f64>().unwrap()),
        (&[][..], &[14.0][..])
    );
    let t = s.one_list("Einsum", &[v], &[1], &eq("i->...i"));
    assert_eq!(t.shape(), &[3]);
}

#[test]
fn empty_dimensions() {
    let s = Env::new();
    // Contracting over nothing: zeros.
    let a = s.t::<f32>(&[2, 0], &[]);
    let b = s.t::<f32>(&[0, 3], &[]);
    let t = s.one_list("Einsum", &[a, b], &[2], &eq("ij,jk->ik"));
    assert_eq!(
        (t.shape(), t.as_slice::<f32>().unwrap()),
        (&[2, 3][..], &[0.0; 6][..])
    );
    // An empty output.
    let c = s.t::<f32>(&[3, 0], &[]);
    let t = s.one_list("Einsum", &[b, c], &[2], &eq("ij,jk->ik"));
    assert_eq!(t.shape(), &[0, 0]);
    let t = s.one_list("Einsum", &[b], &[1], &eq("ij->ji"));
    assert_eq!(t.shape(), &[3, 0]);
    // Sums and traces of nothing.
    let t = s.one_list("Einsum", &[a], &[1], &eq("ij->i"));
    assert_eq!(t.as_slice::<f32>().unwrap(), &[0.0, 0.0]);
    let z = s.t::<f32>(&[0, 0], &[]);
    let t = s.one_list("Einsum", &[z], &[1], &eq("ii->"));
    assert_eq!(
        (t.shape(), t.as_slice::<f32>().unwrap()),
        (&[][..], &[0.0][..])
    );
    // An empty batch, broadcast.
    let e = s.t::<f32>(&[0, 2, 2], &[]);
    let one = s.t(&[1, 2, 2], &[1f32; 4]);
    let t = s.one_list("Einsum", &[e, one], &[2], &eq("...ij,...jk->...ik"));
    assert_eq!(t.shape(), &[0, 2, 2]);
}

/// The message of Einsum's refusal of `inputs` under `equation`.
fn refusal(s: &Env, equation: &str, inputs: &[u64]) -> String {
    let m = s.err_list("Einsum", inputs, &[inputs.len() as i32], &eq(equation));
    assert!(m.starts_with("Einsum"), "{m}");
    m
}

#[test]
fn every_error_names_the_equation_the_operand_and_the_shapes() {
    let s = Env::new();
    let m = s.t(&[2, 3], &[0f32; 6]);
    let n = s.t(&[4, 5], &[0f32; 20]);
    let v = s.t(&[3], &[0f32; 3]);
    let has = |msg: String, parts: &[&str]| {
        for p in parts {
            assert!(msg.contains(p), "{msg:?} lacks {p:?}");
        }
    };
    // Syntax: the arrow (no implicit form, as TensorFlow's op), subscripts,
    // characters, ellipses.
    has(
        refusal(&s, "ij,jk", &[m, n]),
        &["'ij,jk'", "exactly one '->'"],
    );
    has(refusal(&s, "ij->i->i", &[m]), &["exactly one '->'"]);
    has(
        refusal(&s, "i,j,k->ijk", &[v, v, v]),
        &["3 input subscripts", "1 or 2 operands"],
    );
    has(refusal(&s, "i1->i", &[m]), &["'1'", "ASCII letter"]);
    has(refusal(&s, "i j->ij", &[m]), &["' '"]);
    has(refusal(&s, "..i->i", &[m]), &["ellipsis"]);
    has(refusal(&s, "...i...->i", &[m]), &["more than one ellipsis"]);
    has(
        refusal(&s, "ij->k", &[m]),
        &["output label 'k'", "no input"],
    );
    // Operand count.
    has(
        refusal(&s, "ij,jk->ik", &[m]),
        &["2 input subscript(s) but 1 input(s)"],
    );
    has(
        refusal(&s, "ij->ij", &[m, m]),
        &["1 input subscript(s) but 2 input(s)"],
    );
    // Rank against subscripts.
    has(
        refusal(&s, "ijk->i", &[m]),
        &["inputs[0]", "[2, 3]", "rank 2", "needs rank 3"],
    );
    has(
        refusal(&s, "ij,...ijk->k", &[m, m]),
        &["inputs[1]", "needs rank at least 3"],
    );
    // Sizes of one label that disagree, across and within operands.
    has(
        refusal(&s, "ij,jk->ik", &[m, n]),
        &[
            "label 'j'",
            "size 3 in inputs[0] (shape [2, 3])",
            "size 4",
            "inputs[1] (shape [4, 5])",
        ],
    );
    has(
        refusal(&s, "ii->i", &[m]),
        &["label 'i'", "size 2", "size 3"],
    );
    // Ellipses: dimensions with nowhere to go, dimensions that do not broadcast.
    let b3 = s.t(&[3, 2, 3], &[0f32; 18]);
    let b4 = s.t(&[4, 3, 2], &[0f32; 24]);
    has(
        refusal(&s, "...ij->ij", &[b3]),
        &["cover 1 dimension(s)", "no ellipsis"],
    );
    has(
        refusal(&s, "...ij,...jk->...ik", &[b3, b4]),
        &["do not broadcast", "[3] in inputs[0]", "[4] in inputs[1]"],
    );
    // Dtypes: one for all, and one the kernel has.
    let d = s.t(&[3], &[0f64; 3]);
    has(
        refusal(&s, "i,i->", &[v, d]),
        &["inputs[1] has dtype DOUBLE", "inputs[0] has dtype FLOAT"],
    );
    let flags = s.t(&[3], &[true; 3]);
    has(
        refusal(&s, "i->", &[flags]),
        &["BOOL", "FLOAT, DOUBLE, INT32, INT64"],
    );
    // The equation is required.
    let msg = s.err_list("Einsum", &[m], &[1], &Attrs::new());
    assert!(msg.contains("'equation' is required"), "{msg}");
    // No operands at all.
    has(refusal(&s, "->", &[]), &["0 input(s)"]);
}

/// Build-time inference's view: every input pending with a known shape.
fn inferred(equation: &str, shapes: &[&[usize]]) -> eagerflow::Result<Meta> {
    let r = Registry::global();
    let metas: Vec<Meta> = shapes
        .iter()
        .map(|s| Meta {
            dtype: Some(DataType::Float),
            shape: Some((*s).into()),
        })
        .collect();
    let inputs: Vec<Input<'_>> = metas.iter().map(Input::Pending).collect();
    let env = Env::new();
    r.infer(
        r.lookup("Einsum").unwrap(),
        &inputs,
        Some(&[inputs.len() as i32]),
        &eq(equation),
        env.s.account(),
    )
}

#[test]
fn build_time_inference_gives_the_output_shape_and_the_kernel_errors() {
    let shape = |e: &str, s: &[&[usize]]| inferred(e, s).unwrap().shape.unwrap().to_vec();
    assert_eq!(shape("ij,jk->ki", &[&[2, 3], &[3, 4]]), vec![4, 2]);
    assert_eq!(shape("ii->", &[&[3, 3]]), Vec::<usize>::new());
    assert_eq!(shape("i->ii", &[&[3]]), vec![3, 3]);
    assert_eq!(
        shape("...ij,...jk->...ik", &[&[2, 1, 2, 3], &[5, 3, 4]]),
        vec![2, 5, 2, 4]
    );
    assert_eq!(
        inferred("ij,jk->ik", &[&[2, 3], &[3, 4]]).unwrap().dtype,
        Some(DataType::Float)
    );
    let e = inferred("ij,jk->ik", &[&[2, 3], &[4, 4]]).unwrap_err();
    assert!(e.to_string().contains("label 'j'"), "{e}");
    let e = inferred("ij,jk", &[&[2, 3], &[3, 4]]).unwrap_err();
    assert!(e.to_string().contains("exactly one '->'"), "{e}");
    // Unknown shapes: the dtype only.
    let meta = Meta {
        dtype: Some(DataType::Double),
        shape: None,
    };
    let r = Registry::global();
    let env = Env::new();
    let m = r
        .infer(
            r.lookup("Einsum").unwrap(),
            &[Input::Pending(&meta)],
            Some(&[1]),
            &eq("ij->ji"),
            env.s.account(),
        )
        .unwrap();
    assert_eq!((m.dtype, m.shape), (Some(DataType::Double), None));
}
