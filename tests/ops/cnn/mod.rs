//! The ops of convolutional networks (`src/ops/cnn`): each checked against
//! a naive reference computed here (every padding mode, strides and
//! dilations) or hand-computed values, and their error cases.

mod conv;
mod more;
mod pool;
mod topk;
