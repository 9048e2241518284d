package io.eagerflow.tfdiff;

import static io.eagerflow.tfdiff.Generate.plain;
import static io.eagerflow.tfdiff.Generate.s;
import static io.eagerflow.tfdiff.Generate.shaped;
import static io.eagerflow.tfdiff.Generate.vector;
import static io.eagerflow.tfdiff.Values.*;

import java.util.List;

/**
 * The cases of the ops issue 24 added (math, array, nn and image; linalg has a file of its own),
 * on every dtype (refusals count), with the same edge values as {@link Generate}'s.
 */
final class IssueOpCases {
  static final String[] UNARY = {
    "Erf", "Erfc", "Lgamma", "IsNan", "IsInf", "IsFinite", "Softplus", "Softsign", "LeakyRelu",
    "Inv"
  };
  static final String[] BINARY = {"Atan2", "TruncateDiv", "TruncateMod"};

  private IssueOpCases() {}

  static Case.Attr a(String name, char kind, Object value) {
    return new Case.Attr(name, kind, String.valueOf(value));
  }

  static Values i32(long[] shape, double... v) {
    return of(INT32, shape, v);
  }

  static void add(Generate g) {
    for (String op : UNARY) {
      for (int d : ALL) {
        g.add(op, List.of(), vector(d, 0));
        g.add(op, List.of(), shaped(d, s(), 2));
        g.add(op, List.of(), shaped(d, s(0), 0));
        g.add(op, List.of(), shaped(d, s(2, 3), 5));
      }
    }
    g.add("LeakyRelu", List.of(a("alpha", 'f', 0.5)), vector(FLOAT, 0));
    for (String op : BINARY) {
      for (int d : ALL) {
        for (int r = 0; r < 16; r += 5) {
          g.add(op, List.of(), vector(d, 0), vector(d, r));
        }
        g.add(op, List.of(), plain(d, s(2, 3), 1), plain(d, s(3), 2));
        g.add(op, List.of(), plain(d, s(), 3), plain(d, s(0), 2));
        g.add(op, List.of(), plain(d, s(2), 3), plain(d, s(3), 2)); // no broadcast: refused
      }
    }
    Values axis0 = i32(s(), 0);
    Values axisLast = i32(s(), -1);
    for (int d : ALL) {
      g.add("Cumprod", List.of(), shaped(d, s(4, 4), 0), axis0);
      g.add("Cumprod", List.of(a("exclusive", 'b', true), a("reverse", 'b', true)),
          plain(d, s(3, 4), 2), axisLast);
      g.add("ReverseV2", List.of(), shaped(d, s(2, 3), 1), i32(s(1), 1));
      g.add("ReverseV2", List.of(), shaped(d, s(2, 3), 1), i32(s(2), 0, -1));
      g.add("Roll", List.of(), shaped(d, s(2, 3), 1), i32(s(), 1), i32(s(), -1));
      g.add("Roll", List.of(), shaped(d, s(2, 3), 1), i32(s(2), -1, 4), i32(s(2), 0, 1));
      g.add("BroadcastTo", List.of(), shaped(d, s(3), 1), i32(s(2), 2, 3));
      g.add("BroadcastTo", List.of(), shaped(d, s(), 1), i32(s(2), 2, 0));
      g.add("BroadcastTo", List.of(), shaped(d, s(2), 1), i32(s(1), 3)); // refused
      g.add("Where", List.of(), shaped(d, s(2, 3), 1));
      g.add("Where", List.of(), shaped(d, s(), 0));
      g.add("Unique", List.of(), vector(d, 0));
      g.add("Unique", List.of(), plain(d, s(7), 1));
      g.add("MatrixDiag", List.of(), shaped(d, s(2, 3), 1));
      g.add("MatrixDiagPart", List.of(), shaped(d, s(3, 3), 1));
      g.add("MatrixDiagPart", List.of(), shaped(d, s(2, 4), 1));
      g.add("MatrixBandPart", List.of(), shaped(d, s(3, 3), 0), ofLongs(s(), 1), ofLongs(s(), 0));
      g.add("MatrixBandPart", List.of(), shaped(d, s(3, 4), 3), ofLongs(s(), -1), ofLongs(s(), 1));
      g.add("GatherNd", List.of(), shaped(d, s(3, 2), 1), i32(s(2, 2), 1, 0, 2, 1));
      g.add("GatherNd", List.of(), shaped(d, s(3, 2), 1), i32(s(1, 1), 2));
      g.add("GatherNd", List.of(), shaped(d, s(3, 2), 1), i32(s(1, 2), 3, 0)); // out of range
      g.add("ScatterNd", List.of(), i32(s(3, 1), 1, 3, 1), shaped(d, s(3), 4), i32(s(1), 4));
      g.add("TensorScatterUpdate", List.of(), shaped(d, s(4), 0), i32(s(2, 1), 1, 3),
          shaped(d, s(2), 9));
      g.add("TensorScatterAdd", List.of(), plain(d, s(4), 0), i32(s(3, 1), 1, 3, 1),
          plain(d, s(3), 2));
      g.add("TensorScatterAdd", List.of(), plain(d, s(4), 0), i32(s(1, 1), 4), plain(d, s(1), 2));
      for (String op : new String[] {"SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin"}) {
        g.add(op, List.of(), shaped(d, s(4, 2), 1), i32(s(4), 0, 0, 1, 1));
        g.add(op, List.of(), shaped(d, s(4, 2), 3), i32(s(4), 0, 0, 2, 2)); // segment 1 empty
        g.add(op, List.of(), shaped(d, s(3), 3), i32(s(3), 1, 0, 0)); // unsorted: refused
      }
      for (String op : new String[] {"UnsortedSegmentSum", "UnsortedSegmentMax"}) {
        g.add(op, List.of(), shaped(d, s(4, 2), 1), i32(s(4), 0, 2, 0, 1), i32(s(), 3));
        g.add(op, List.of(), shaped(d, s(4), 5), i32(s(4), 0, -1, 0, 3), i32(s(), 4));
      }
      g.add("Pad", List.of(), shaped(d, s(2, 3), 1), i32(s(2, 2), 1, 0, 0, 2));
      g.add("PadV2", List.of(), shaped(d, s(2, 3), 1), i32(s(2, 2), 0, 1, 1, 0),
          shaped(d, s(), 9));
      for (String mode : new String[] {"REFLECT", "SYMMETRIC"}) {
        g.add("MirrorPad", List.of(a("mode", 's', mode)), shaped(d, s(2, 3), 1),
            i32(s(2, 2), 1, 1, 2, 1));
      }
      g.add("SpaceToDepth", List.of(a("block_size", 'i', 2)), shaped(d, s(1, 2, 4, 1), 1));
      g.add("DepthToSpace", List.of(a("block_size", 'i', 2)), shaped(d, s(1, 1, 2, 4), 1));
      g.add("TopKV2", List.of(), plain(d, s(2, 5), 1), i32(s(), 3));
      g.add("TopKV2", List.of(), vector(d, 0), i32(s(), 16));
      g.add("StridedSlice", List.of(), shaped(d, s(4, 4), 0), i32(s(2), 1, 0), i32(s(2), 3, 4),
          i32(s(2), 1, 2));
      g.add("StridedSlice", List.of(a("shrink_axis_mask", 'i', 1)), shaped(d, s(4, 4), 0),
          i32(s(2), -1, 3), i32(s(2), 0, 0), i32(s(2), 1, -1));
      g.add("Split", List.of(a("num_split", 'i', 2)), axis0, shaped(d, s(4, 2), 1));
      g.add("Unpack", List.of(a("num", 'i', 2), a("axis", 'i', 1)), shaped(d, s(3, 2), 1));
      g.add("Softmax", List.of(), plain(d, s(2, 0), 1));
      g.add("SoftmaxCrossEntropyWithLogits", List.of(), shaped(d, s(2, 3), 1), plain(d, s(2, 3), 2));
      g.add("SparseSoftmaxCrossEntropyWithLogits", List.of(), plain(d, s(2, 3), 1),
          i32(s(2), 0, 2));
      g.add("Bincount", List.of(), i32(s(5), 1, 1, 3, 0, 1), i32(s(), 5), plain(d, s(0), 1));
      g.add("Bincount", List.of(), i32(s(5), 1, 1, 3, 0, 1), i32(s(), 4), plain(d, s(5), 1));
      g.add("LinSpace", List.of(), shaped(d, s(), 3), shaped(d, s(), 0), i32(s(), 5));
      g.add("InTopKV2", List.of(), plain(d, s(2, 3), 1), i32(s(2), 0, 2), i32(s(), 1));
      // nn and image: NHWC, 4-D.
      Values img = plain(d, s(1, 4, 4, 2), 1);
      g.add("MaxPool", List.of(a("ksize", 'l', "1;2;2;1"), a("strides", 'l', "1;2;2;1"),
          a("padding", 's', "VALID")), img);
      g.add("AvgPool", List.of(a("ksize", 'l', "1;3;3;1"), a("strides", 'l', "1;2;2;1"),
          a("padding", 's', "SAME")), img);
      g.add("MaxPool", List.of(a("ksize", 'l', "1;2;2;1"), a("strides", 'l', "1;1;1;1"),
          a("padding", 's', "SAME")), shaped(d, s(1, 4, 4, 1), 0));
      g.add("Conv2D", List.of(a("strides", 'l', "1;1;1;1"), a("padding", 's', "VALID")), img,
          plain(d, s(2, 2, 2, 3), 2));
      g.add("Conv2D", List.of(a("strides", 'l', "1;2;2;1"), a("padding", 's', "SAME"),
          a("dilations", 'l', "1;1;1;1")), img, plain(d, s(3, 3, 2, 1), 3));
      g.add("DepthwiseConv2dNative", List.of(a("strides", 'l', "1;1;1;1"),
          a("padding", 's', "VALID")), img, plain(d, s(2, 2, 2, 2), 2));
      g.add("LRN", List.of(), img);
      g.add("FusedBatchNormV3", List.of(a("is_training", 'b', false)), img,
          plain(FLOAT, s(2), 1), plain(FLOAT, s(2), 2), plain(FLOAT, s(2), 3),
          Values.of(FLOAT, s(2), 1, 2));
      g.add("ResizeBilinear", List.of(), img, i32(s(2), 6, 3));
      g.add("ResizeBilinear", List.of(a("half_pixel_centers", 'b', true)), img, i32(s(2), 3, 5));
      g.add("ResizeNearestNeighbor", List.of(), img, i32(s(2), 6, 3));
      g.add("ResizeNearestNeighbor", List.of(a("align_corners", 'b', true)), img,
          i32(s(2), 3, 5));
    }
  }
}
