//! Externally tagged enums read from single-key maps, and duplicate map keys rejected.
//!
//! `yaml_serde` reads externally tagged enums only from `!Variant` tags, which PyYAML's safe
//! loader rejects. The wrappers below pass every call through to `yaml_serde` unchanged, except
//! `deserialize_enum`, which asks for any value and accepts a string (unit variant), a single-key
//! map (`Variant: content`) or a tagged node. Errors still come from inside `yaml_serde`'s calls,
//! so they keep their positions. Every nested deserializer, seed and access is wrapped again, so
//! enums at any depth are handled.
//!
//! The same wrappers reject a map key that occurs twice in one map (serde's maps would silently
//! keep the last value): the key deserializer records each scalar key it hands to the key's
//! visitor and fails, inside `yaml_serde`'s call and so at the key's position, on a repeat.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::collections::BTreeSet;
use std::fmt;

/// Wraps a deserializer so that its `deserialize_enum` accepts single-key maps.
pub(super) struct Enums<D>(pub(super) D);

macro_rules! forward_wrapped {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.0.$method(Wrap(visitor))
        }
    )*};
}

impl<'de, D: de::Deserializer<'de>> de::Deserializer<'de> for Enums<D> {
    type Error = D::Error;

    forward_wrapped!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap(visitor))
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Wrap(visitor))
    }
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap(visitor))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Wrap(visitor))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_struct(name, fields, Wrap(visitor))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(EnumVisitor(visitor))
    }
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Wraps a visitor so that the deserializers and accesses it is handed are wrapped too.
struct Wrap<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.0.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.0.visit_i64(v)
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<V::Value, E> {
        self.0.visit_i128(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.0.visit_u64(v)
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<V::Value, E> {
        self.0.visit_u128(v)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.0.visit_f64(v)
    }
    fn visit_char<E: de::Error>(self, v: char) -> Result<V::Value, E> {
        self.0.visit_char(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_str(v)
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.0.visit_borrowed_str(v)
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.0.visit_string(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.0.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.0.visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.0.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Enums(d))
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Enums(d))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Seq(seq))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Map {
            inner: map,
            seen: BTreeSet::new(),
        })
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Tagged(data))
    }
}

/// Wraps a seed so that the deserializer it is handed is wrapped.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Enums(d))
    }
}

struct Seq<A>(A);

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Seq<A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// A map whose keys are checked for duplicates (YAML forbids them; serde's maps would silently
/// keep the last value).
struct Map<A> {
    inner: A,
    /// The keys seen so far, as the key's type received them, tagged with their kind (`s` string,
    /// `i` integer, `f` float, `b` boolean, `n` null): `1` and `"1"` are the same key for a
    /// `String`-keyed map, which receives both as strings, and different ones otherwise.
    seen: BTreeSet<String>,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Map<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(KeySeed {
            seed,
            seen: &mut self.seen,
        })
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.inner.next_value_seed(Seed(seed))
    }
    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// The message of a duplicate-key error; [`super::CODE_DUPLICATE_KEY`] is chosen by it.
pub(super) const DUPLICATE_KEY: &str = "duplicate key";

/// Deserializes a map key through [`KeyDe`], which records scalar keys.
struct KeySeed<'s, S> {
    seed: S,
    seen: &'s mut BTreeSet<String>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, S> {
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(KeyDe {
            inner: d,
            seen: self.seen,
        })
    }
}

/// Like [`Enums`], for a map key: scalars the key's visitor receives are checked against the
/// keys already seen. The error is raised inside `yaml_serde`'s call, so it points at the key.
struct KeyDe<'s, D> {
    inner: D,
    seen: &'s mut BTreeSet<String>,
}

macro_rules! forward_key {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.inner.$method(KeyVisitor { inner: Wrap(visitor), seen: self.seen })
        }
    )*};
}

impl<'de, D: de::Deserializer<'de>> de::Deserializer<'de> for KeyDe<'_, D> {
    type Error = D::Error;

    forward_key!(
        deserialize_any,
        deserialize_bool,
        deserialize_i8,
        deserialize_i16,
        deserialize_i32,
        deserialize_i64,
        deserialize_i128,
        deserialize_u8,
        deserialize_u16,
        deserialize_u32,
        deserialize_u64,
        deserialize_u128,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_str,
        deserialize_string,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_option,
        deserialize_unit,
        deserialize_seq,
        deserialize_map,
        deserialize_identifier,
        deserialize_ignored_any,
    );

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let v = KeyVisitor {
            inner: Wrap(visitor),
            seen: self.seen,
        };
        self.inner.deserialize_unit_struct(name, v)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        // The key is inside the newtype: keep checking there.
        let v = NewtypeKey {
            inner: visitor,
            seen: self.seen,
        };
        self.inner.deserialize_newtype_struct(name, v)
    }
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_tuple(len, Wrap(visitor))
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner
            .deserialize_tuple_struct(name, len, Wrap(visitor))
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.inner.deserialize_struct(name, fields, Wrap(visitor))
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let v = KeyVisitor {
            inner: EnumVisitor(visitor),
            seen: self.seen,
        };
        self.inner.deserialize_any(v)
    }
    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Records the scalar a key visitor receives, then hands it on.
struct KeyVisitor<'s, V> {
    inner: V,
    seen: &'s mut BTreeSet<String>,
}

impl<V> KeyVisitor<'_, V> {
    fn record<E: de::Error>(
        &mut self,
        kind: char,
        text: &str,
        shown: &dyn fmt::Display,
    ) -> Result<(), E> {
        if self.seen.insert(format!("{kind}{text}")) {
            Ok(())
        } else {
            Err(E::custom(format_args!(
                "{DUPLICATE_KEY} {shown} in this map"
            )))
        }
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }
    fn visit_bool<E: de::Error>(mut self, v: bool) -> Result<V::Value, E> {
        self.record('b', &v.to_string(), &v)?;
        self.inner.visit_bool(v)
    }
    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<V::Value, E> {
        self.record('i', &v.to_string(), &v)?;
        self.inner.visit_i64(v)
    }
    fn visit_i128<E: de::Error>(mut self, v: i128) -> Result<V::Value, E> {
        self.record('i', &v.to_string(), &v)?;
        self.inner.visit_i128(v)
    }
    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<V::Value, E> {
        self.record('i', &v.to_string(), &v)?;
        self.inner.visit_u64(v)
    }
    fn visit_u128<E: de::Error>(mut self, v: u128) -> Result<V::Value, E> {
        self.record('i', &v.to_string(), &v)?;
        self.inner.visit_u128(v)
    }
    fn visit_f64<E: de::Error>(mut self, v: f64) -> Result<V::Value, E> {
        self.record('f', &format!("{v:?}"), &v)?;
        self.inner.visit_f64(v)
    }
    fn visit_char<E: de::Error>(mut self, v: char) -> Result<V::Value, E> {
        self.record('s', v.encode_utf8(&mut [0; 4]), &format_args!("{v:?}"))?;
        self.inner.visit_char(v)
    }
    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<V::Value, E> {
        self.record('s', v, &format_args!("{v:?}"))?;
        self.inner.visit_str(v)
    }
    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<V::Value, E> {
        self.record('s', v, &format_args!("{v:?}"))?;
        self.inner.visit_borrowed_str(v)
    }
    fn visit_string<E: de::Error>(mut self, v: String) -> Result<V::Value, E> {
        self.record('s', &v, &format_args!("{v:?}"))?;
        self.inner.visit_string(v)
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.inner.visit_bytes(v)
    }
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.inner.visit_borrowed_bytes(v)
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<V::Value, E> {
        self.inner.visit_byte_buf(v)
    }
    fn visit_none<E: de::Error>(mut self) -> Result<V::Value, E> {
        self.record('n', "", &"null")?;
        self.inner.visit_none()
    }
    fn visit_unit<E: de::Error>(mut self) -> Result<V::Value, E> {
        self.record('n', "", &"null")?;
        self.inner.visit_unit()
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_some(d)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(d)
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(seq)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(map)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.inner.visit_enum(data)
    }
}

/// The visitor of a newtype key: the deserializer inside is checked as a key again.
struct NewtypeKey<'s, V> {
    inner: V,
    seen: &'s mut BTreeSet<String>,
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NewtypeKey<'_, V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.inner.visit_newtype_struct(KeyDe {
            inner: d,
            seen: self.seen,
        })
    }
}

/// An enum written with a `!Variant` tag, as `yaml_serde` itself reads it.
struct Tagged<A>(A);

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Tagged<A> {
    type Error = A::Error;
    type Variant = TaggedVariant<A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, TaggedVariant(variant)))
    }
}

struct TaggedVariant<A>(A);

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for TaggedVariant<A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(visitor))
    }
}

/// The visitor `deserialize_enum` hands to `deserialize_any`.
struct EnumVisitor<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for EnumVisitor<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)?;
        f.write_str(" (a variant name, or a map with one key naming the variant)")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.0.visit_enum(v.into_deserializer())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.0.visit_enum(v.into_deserializer())
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<V::Value, A::Error> {
        let value = self.0.visit_enum(SingleKey { map: &mut map })?;
        if map.next_key::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "an enum value must be a map with exactly one key, naming the variant",
            ));
        }
        Ok(value)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Tagged(data))
    }
}

/// `Variant: content` read as an enum.
struct SingleKey<'m, A> {
    map: &'m mut A,
}

impl<'de, 'm, A: de::MapAccess<'de>> de::EnumAccess<'de> for SingleKey<'m, A> {
    type Error = A::Error;
    type Variant = SingleKeyContent<'m, A>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        match self.map.next_key_seed(Seed(seed))? {
            Some(v) => Ok((v, SingleKeyContent { map: self.map })),
            None => Err(de::Error::custom(
                "an enum value must be a map with exactly one key, naming the variant; found an empty map",
            )),
        }
    }
}

struct SingleKeyContent<'m, A> {
    map: &'m mut A,
}

/// Reads the content of a tuple or struct variant with the given visitor.
struct ContentSeed<V> {
    visitor: V,
    shape: Shape,
}

enum Shape {
    Tuple(usize),
    Struct(&'static [&'static str]),
}

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for ContentSeed<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        use de::Deserializer as _;
        match self.shape {
            Shape::Tuple(len) => Enums(d).deserialize_tuple(len, self.visitor),
            Shape::Struct(fields) => Enums(d).deserialize_struct("", fields, self.visitor),
        }
    }
}

impl<'de, A: de::MapAccess<'de>> de::VariantAccess<'de> for SingleKeyContent<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.map.next_value::<()>()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.map.next_value_seed(Seed(seed))
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(ContentSeed {
            visitor,
            shape: Shape::Tuple(len),
        })
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(ContentSeed {
            visitor,
            shape: Shape::Struct(fields),
        })
    }
}
