//! How deeply a value's collections would nest when written as YAML, measured without writing: the emitter's own counting (every sequence, map and struct, and the one-key map of every enum variant with content), stopping at the first collection past [`MAX_NESTING`].

use super::{MAX_NESTING, YamlError};
use serde::ser::{self, Serialize};

/// Whether `value`, written at `around` collections deep, keeps within [`MAX_NESTING`]: exactly
/// when [`super::to_string`] would not refuse it for its depth. Writes nothing; stops at the first
/// collection too deep.
pub fn fits<T: Serialize + ?Sized>(value: &T, around: usize) -> bool {
    value.serialize(Depth(around)).is_ok()
}

/// A serializer that only counts the collections around the value it is given.
#[derive(Clone, Copy)]
struct Depth(usize);

fn too_deep() -> YamlError {
    ser::Error::custom("too deep")
}

impl Depth {
    /// Opens one collection, as `Emitter::collection` does.
    fn open(self) -> Result<Depth, YamlError> {
        if self.0 >= MAX_NESTING {
            return Err(too_deep());
        }
        Ok(Depth(self.0 + 1))
    }
}

macro_rules! scalars {
    ($($f:ident($t:ty)),* $(,)?) => {
        $(fn $f(self, _v: $t) -> Result<(), YamlError> { Ok(()) })*
    };
}

impl ser::Serializer for Depth {
    type Ok = ();
    type Error = YamlError;
    type SerializeSeq = Depth;
    type SerializeTuple = Depth;
    type SerializeTupleStruct = Depth;
    type SerializeTupleVariant = Depth;
    type SerializeMap = Depth;
    type SerializeStruct = Depth;
    type SerializeStructVariant = Depth;

    scalars!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
    );
    fn serialize_none(self) -> Result<(), YamlError> {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), YamlError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), YamlError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), YamlError> {
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
    ) -> Result<(), YamlError> {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        value: &T,
    ) -> Result<(), YamlError> {
        value.serialize(self.open()?)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Depth, YamlError> {
        self.open()
    }
    fn serialize_tuple(self, _len: usize) -> Result<Depth, YamlError> {
        self.open()
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Depth, YamlError> {
        self.open()
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Depth, YamlError> {
        self.open()?.open()
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Depth, YamlError> {
        self.open()
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Depth, YamlError> {
        self.open()
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Depth, YamlError> {
        self.open()?.open()
    }
}

macro_rules! entries {
    ($($tr:ident :: $f:ident),* $(,)?) => {
        $(impl ser::$tr for Depth {
            type Ok = ();
            type Error = YamlError;
            fn $f<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
                value.serialize(*self)
            }
            fn end(self) -> Result<(), YamlError> {
                Ok(())
            }
        })*
    };
}

entries!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

impl ser::SerializeMap for Depth {
    type Ok = ();
    type Error = YamlError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), YamlError> {
        key.serialize(*self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), YamlError> {
        value.serialize(*self)
    }
    fn end(self) -> Result<(), YamlError> {
        Ok(())
    }
}

macro_rules! fields {
    ($($tr:ident),*) => {
        $(impl ser::$tr for Depth {
            type Ok = ();
            type Error = YamlError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _key: &'static str,
                value: &T,
            ) -> Result<(), YamlError> {
                value.serialize(*self)
            }
            fn end(self) -> Result<(), YamlError> {
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);
