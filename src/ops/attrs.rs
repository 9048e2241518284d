//! Op attributes: the values callers set with `setAttr`, read by kernels with
//! TensorFlow's defaults.

use crate::alloc::{self, MAX_ATTR_LIST, MAX_ATTR_STRING_BYTES, MAX_RANK};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use crate::wire;

/// One attribute value, as `OperationBuilder.setAttr` can give it.
#[derive(Clone, Debug)]
pub enum AttrValue {
    Int(i64),
    Ints(Vec<i64>),
    Float(f32),
    Floats(Vec<f32>),
    Bool(bool),
    Bools(Vec<bool>),
    Type(DataType),
    /// Dimensions, `None` for an unknown rank; -1 marks an unknown dimension.
    Shape(Option<Vec<i64>>),
    Str(String),
    Tensor(Tensor),
}

impl AttrValue {
    fn kind(&self) -> &'static str {
        match self {
            AttrValue::Int(_) => "int",
            AttrValue::Ints(_) => "list(int)",
            AttrValue::Float(_) => "float",
            AttrValue::Floats(_) => "list(float)",
            AttrValue::Bool(_) => "bool",
            AttrValue::Bools(_) => "list(bool)",
            AttrValue::Type(_) => "type",
            AttrValue::Shape(_) => "shape",
            AttrValue::Str(_) => "string",
            AttrValue::Tensor(_) => "tensor",
        }
    }
}

/// The attributes set on one op. Setting a name twice keeps the last value.
#[derive(Clone, Debug, Default)]
pub struct Attrs {
    items: Vec<(String, AttrValue)>,
}

impl Attrs {
    pub const fn new() -> Attrs {
        Attrs { items: Vec::new() }
    }

    /// Heap bytes these attributes hold (a tensor attribute's buffer is
    /// counted by the account that made it).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let values: usize = self
            .items
            .iter()
            .map(|(name, value)| {
                name.capacity()
                    + match value {
                        AttrValue::Ints(v) => v.capacity() * size_of::<i64>(),
                        AttrValue::Floats(v) => v.capacity() * size_of::<f32>(),
                        AttrValue::Bools(v) => v.capacity(),
                        AttrValue::Shape(Some(v)) => v.capacity() * size_of::<i64>(),
                        AttrValue::Str(s) => s.capacity(),
                        _ => 0,
                    }
            })
            .sum();
        self.items.capacity() * size_of::<(String, AttrValue)>() + values
    }

    pub fn set(&mut self, name: impl Into<String>, value: AttrValue) {
        let name = name.into();
        match self.items.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.items.push((name, value)),
        }
    }

    /// Builder form of [`Attrs::set`].
    pub fn with(mut self, name: impl Into<String>, value: AttrValue) -> Attrs {
        self.set(name, value);
        self
    }

    pub fn get(&self, name: &str) -> Option<&AttrValue> {
        self.items.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &AttrValue)> {
        self.items.iter().map(|(n, v)| (n.as_str(), v))
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn wrong(name: &str, want: &str, got: &AttrValue) -> Error {
        Error::invalid(format!(
            "attribute '{name}' must be {want} but was set as {}",
            got.kind()
        ))
    }

    pub fn int(&self, name: &str, default: i64) -> Result<i64> {
        match self.get(name) {
            None => Ok(default),
            Some(AttrValue::Int(v)) => Ok(*v),
            Some(v) => Err(Self::wrong(name, "an int", v)),
        }
    }

    pub fn required_int(&self, name: &str) -> Result<i64> {
        match self.get(name) {
            None => Err(Error::invalid(format!("attribute '{name}' is required"))),
            Some(_) => self.int(name, 0),
        }
    }

    pub fn float(&self, name: &str, default: f32) -> Result<f32> {
        match self.get(name) {
            None => Ok(default),
            Some(AttrValue::Float(v)) => Ok(*v),
            Some(v) => Err(Self::wrong(name, "a float", v)),
        }
    }

    pub fn bool(&self, name: &str, default: bool) -> Result<bool> {
        match self.get(name) {
            None => Ok(default),
            Some(AttrValue::Bool(v)) => Ok(*v),
            Some(v) => Err(Self::wrong(name, "a bool", v)),
        }
    }

    pub fn ints(&self, name: &str) -> Result<Option<&[i64]>> {
        match self.get(name) {
            None => Ok(None),
            Some(AttrValue::Ints(v)) => Ok(Some(v)),
            Some(v) => Err(Self::wrong(name, "a list(int)", v)),
        }
    }

    pub fn dtype(&self, name: &str) -> Result<Option<DataType>> {
        match self.get(name) {
            None => Ok(None),
            Some(AttrValue::Type(d)) => Ok(Some(*d)),
            Some(v) => Err(Self::wrong(name, "a type", v)),
        }
    }

    pub fn required_dtype(&self, name: &str) -> Result<DataType> {
        self.dtype(name)?
            .ok_or_else(|| Error::invalid(format!("attribute '{name}' is required")))
    }

    pub fn string(&self, name: &str) -> Result<Option<&str>> {
        match self.get(name) {
            None => Ok(None),
            Some(AttrValue::Str(s)) => Ok(Some(s)),
            Some(v) => Err(Self::wrong(name, "a string", v)),
        }
    }

    pub fn tensor(&self, name: &str) -> Result<Option<&Tensor>> {
        match self.get(name) {
            None => Ok(None),
            Some(AttrValue::Tensor(t)) => Ok(Some(t)),
            Some(v) => Err(Self::wrong(name, "a tensor", v)),
        }
    }
}

/// Where a tensor-valued attribute's tensor lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorOwner {
    /// The table of standalone tensors.
    Standalone,
    /// The session running the op.
    Caller,
    /// Another session, by id.
    Session(u64),
}

impl Attrs {
    /// Decodes the flat encoding. A name is its position in `names` (the op's
    /// attribute names, `Registry::attr_names`); `tensor(owner, handle)`
    /// resolves tensor-valued attributes.
    pub fn decode<S: AsRef<str>>(
        encoded: &[i64],
        names: &[S],
        tensor: impl Fn(TensorOwner, u64) -> Result<Tensor>,
    ) -> Result<Attrs> {
        let bad = || Error::invalid("malformed attribute encoding");
        let name_at = |i: i64| -> Result<String> {
            usize::try_from(i)
                .ok()
                .and_then(|i| names.get(i))
                .map(|s| s.as_ref().to_string())
                .ok_or_else(bad)
        };
        let mut attrs = Attrs::new();
        let mut rest = encoded;
        while let [name, k, count, tail @ ..] = rest {
            let name = name_at(*name)?;
            let n = if *k == wire::ATTR_SHAPE && *count == -1 {
                0
            } else {
                usize::try_from(*count).map_err(|_| bad())?
            };
            let payload = tail.get(..n).ok_or_else(bad)?;
            rest = &tail[n..];
            let single = || payload.first().copied().ok_or_else(bad);
            // Lists as long as the caller's arrays: bounded, then copied fallibly.
            let list = |bound: usize| {
                alloc::within(
                    format_args!("attribute '{name}' has a list whose length"),
                    n,
                    bound,
                )
            };
            let value = match *k {
                wire::ATTR_INT => AttrValue::Int(single()?),
                wire::ATTR_INTS => AttrValue::Ints(alloc::collect(
                    list(MAX_ATTR_LIST)?,
                    payload.iter().copied(),
                )?),
                wire::ATTR_FLOAT => AttrValue::Float(f32::from_bits(single()? as u32)),
                wire::ATTR_FLOATS => AttrValue::Floats(alloc::collect(
                    list(MAX_ATTR_LIST)?,
                    payload.iter().map(|&b| f32::from_bits(b as u32)),
                )?),
                wire::ATTR_BOOL => AttrValue::Bool(single()? != 0),
                wire::ATTR_BOOLS => AttrValue::Bools(alloc::collect(
                    list(MAX_ATTR_LIST)?,
                    payload.iter().map(|&b| b != 0),
                )?),
                wire::ATTR_TYPE => AttrValue::Type(DataType::from_code(single()? as i32)?),
                wire::ATTR_SHAPE if *count == -1 => AttrValue::Shape(None),
                wire::ATTR_SHAPE => AttrValue::Shape(Some(alloc::collect(
                    alloc::within(
                        format_args!("attribute '{name}' has a shape whose rank"),
                        n,
                        MAX_RANK,
                    )?,
                    payload.iter().copied(),
                )?)),
                wire::ATTR_STRING => {
                    AttrValue::Str(unpack_string(&name, payload)?.ok_or_else(|| {
                        Error::invalid(format!("attribute '{name}' is malformed or not UTF-8"))
                    })?)
                }
                wire::ATTR_TENSOR => match payload {
                    [0, handle] => {
                        AttrValue::Tensor(tensor(TensorOwner::Standalone, *handle as u64)?)
                    }
                    [1, handle] => AttrValue::Tensor(tensor(TensorOwner::Caller, *handle as u64)?),
                    _ => return Err(bad()),
                },
                wire::ATTR_FOREIGN_TENSOR => match payload {
                    [id, handle] => {
                        AttrValue::Tensor(tensor(TensorOwner::Session(*id as u64), *handle as u64)?)
                    }
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            };
            attrs.set(name, value);
        }
        if !rest.is_empty() {
            return Err(bad());
        }
        Ok(attrs)
    }
}

/// The string in [`wire::ATTR_STRING`](crate::wire::ATTR_STRING)'s payload; `None` if malformed or not UTF-8.
/// As long as the caller's string: copied fallibly.
/// At most [`MAX_ATTR_STRING_BYTES`] long.
fn unpack_string(name: &str, payload: &[i64]) -> Result<Option<String>> {
    let Some((&len, words)) = payload.split_first() else {
        return Ok(None);
    };
    let Some(len) = usize::try_from(len)
        .ok()
        .filter(|&len| words.len() == len.div_ceil(8))
    else {
        return Ok(None);
    };
    alloc::within(
        format_args!("attribute '{name}' has a string whose length in bytes"),
        len,
        MAX_ATTR_STRING_BYTES,
    )?;
    let bytes = words.iter().flat_map(|w| w.to_le_bytes()).take(len);
    Ok(String::from_utf8(alloc::collect(len, bytes)?).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Java's `EagerOperationBuilder` sends for a string value.
    fn pack_string(s: &str) -> Vec<i64> {
        let bytes = s.as_bytes();
        let mut words = vec![1 + bytes.len().div_ceil(8) as i64, bytes.len() as i64];
        words.extend(bytes.chunks(8).map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            i64::from_le_bytes(w)
        }));
        words
    }

    #[test]
    fn decodes_every_kind() -> Result<()> {
        let names = ["a", "b", "c", "d", "e"];
        let mut enc = vec![
            0,
            wire::ATTR_INT,
            1,
            42, //
            1,
            wire::ATTR_FLOATS,
            2,
            1.5f32.to_bits() as i64,
            2.0f32.to_bits() as i64, //
            2,
            wire::ATTR_SHAPE,
            -1, //
            3,
            wire::ATTR_STRING,
        ];
        enc.extend(pack_string("SAME"));
        enc.extend([4, wire::ATTR_STRING]);
        enc.extend(pack_string("a longer value, ünïcödé"));
        let attrs = Attrs::decode(&enc, &names, |_, _| Err(Error::invalid("no tensors")))?;
        assert_eq!(attrs.int("a", 0)?, 42);
        assert!(matches!(attrs.get("b"), Some(AttrValue::Floats(v)) if v == &[1.5, 2.0]));
        assert!(matches!(attrs.get("c"), Some(AttrValue::Shape(None))));
        assert_eq!(attrs.string("d")?, Some("SAME"));
        assert_eq!(attrs.string("e")?, Some("a longer value, ünïcödé"));
        assert!(attrs.bool("a", false).is_err(), "wrong kind is an error");
        Ok(())
    }

    #[test]
    fn rejects_malformed_input() {
        let names = ["a"];
        let none = |_, _| Err(Error::invalid("no tensors"));
        for enc in [
            &[0, wire::ATTR_INT, 1][..],
            &[5, wire::ATTR_INT, 1, 3],
            &[0, 99, 0],
            &[0, wire::ATTR_INT, -3],
            &[0, wire::ATTR_INTS],
            &[0, wire::ATTR_STRING, 1, 3],
            &[0, wire::ATTR_STRING, 2, 9, 0],
            &[0, wire::ATTR_STRING, 2, 1, 0xff],
            &[0, wire::ATTR_STRING, 2, -1, 0],
        ] {
            assert!(Attrs::decode(enc, &names, none).is_err(), "{enc:?}");
        }
    }
}
