//! A game record's tags as kept after the check: every name and value in one string, with where each ends.
//! Two allocations a record instead of two a tag: a large catalog keeps the tags of every record it holds (a
//! tenth of a million records at 100,000 items), and the strings' own headers and the allocator's rounding
//! took more room than their text.
//!
//! Shown (to templates, as JSON) as the list of `(name, value)` pairs it stands for. Kept in the games file
//! (postcard, not human-readable) as held, the text and its ends: reading the list of pairs back made and
//! checked a string for each name and value, a third of reading the games file back at the start of a rebuild
//! (66,000 records at 10,000 items), where the text is now checked once a record.

use std::fmt;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// Tags in order, as (name, value).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Tags {
    /// Name and value after name and value, with nothing between them.
    text: Box<str>,
    /// Where each name, then its value, ends in `text`: two entries a tag.
    ends: Box<[u32]>,
}

impl Tags {
    /// The tags of `pairs`, in order. A record is far below 4 GiB, the most the ends can count.
    pub fn new<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Tags {
        let mut builder = Builder::default();
        for (name, value) in pairs {
            builder.push(name);
            builder.push(value);
        }
        builder.finish()
    }

    /// Every tag, in order: (name, value).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.ends.chunks_exact(2).scan(0usize, |start, ends| {
            let (name_end, value_end) = (ends[0] as usize, ends[1] as usize);
            let pair = (
                &self.text[*start..name_end],
                &self.text[name_end..value_end],
            );
            *start = value_end;
            Some(pair)
        })
    }

    /// The value of the first tag named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn len(&self) -> usize {
        self.ends.len() / 2
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Tags being gathered, name then value.
#[derive(Default)]
struct Builder {
    text: String,
    ends: Vec<u32>,
}

impl Builder {
    fn push(&mut self, part: &str) {
        self.text.push_str(part);
        self.ends.push(
            u32::try_from(self.text.len())
                .expect("a game record's tags fit in 4 GiB: records are capped"),
        );
    }

    fn finish(self) -> Tags {
        Tags {
            text: self.text.into_boxed_str(),
            ends: self.ends.into_boxed_slice(),
        }
    }
}

impl Serialize for Tags {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !serializer.is_human_readable() {
            return (&*self.text, &*self.ends).serialize(serializer);
        }
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for pair in self.iter() {
            seq.serialize_element(&pair)?;
        }
        seq.end()
    }
}

impl<'de> serde::Deserialize<'de> for Tags {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Tags, D::Error> {
        if !deserializer.is_human_readable() {
            let (text, ends): (String, Vec<u32>) = serde::Deserialize::deserialize(deserializer)?;
            return Tags::from_parts(text, ends).ok_or_else(|| {
                de::Error::custom("tags whose ends do not fall in order on their text's characters")
            });
        }
        deserializer.deserialize_seq(TagsVisitor)
    }
}

impl Tags {
    /// The tags held as `text` and `ends` ([`Tags`]' own fields), if the ends could have been made from
    /// pairs: two a tag, in order, each on a character of the text, the last at its end.
    fn from_parts(text: String, ends: Vec<u32>) -> Option<Tags> {
        let whole = ends.len() % 2 == 0
            && ends
                .last()
                .map_or(text.is_empty(), |&last| last as usize == text.len())
            && ends.windows(2).all(|w| w[0] <= w[1])
            && ends.iter().all(|&end| text.is_char_boundary(end as usize));
        whole.then(|| Tags {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
        })
    }
}

struct TagsVisitor;

impl<'de> Visitor<'de> for TagsVisitor {
    type Value = Tags;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of (name, value) pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tags, A::Error> {
        let mut builder = Builder::default();
        // Each pair is read straight into the string: no string of its own for each name and value.
        while seq.next_element_seed(PairSeed(&mut builder))?.is_some() {}
        Ok(builder.finish())
    }
}

/// One (name, value) pair, appended to the builder.
struct PairSeed<'b>(&'b mut Builder);

impl<'de> DeserializeSeed<'de> for PairSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for PairSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a (name, value) pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        for part in 0..2 {
            if seq.next_element_seed(PartSeed(self.0))?.is_none() {
                return Err(de::Error::invalid_length(part, &self));
            }
        }
        Ok(())
    }
}

/// A name or a value, appended to the builder.
struct PartSeed<'b>(&'b mut Builder);

impl<'de> DeserializeSeed<'de> for PartSeed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for PartSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a tag's name or value")
    }

    fn visit_str<E: de::Error>(self, part: &str) -> Result<(), E> {
        self.0.push(part);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(tags: &Tags) -> Vec<(&str, &str)> {
        tags.iter().collect()
    }

    #[test]
    fn tags_keep_their_order_and_empty_parts() {
        let tags = Tags::new([
            ("Event", "Démo"),
            ("Round", ""),
            ("", "x"),
            ("Event", "second"),
        ]);
        assert_eq!(
            pairs(&tags),
            [
                ("Event", "Démo"),
                ("Round", ""),
                ("", "x"),
                ("Event", "second")
            ]
        );
        assert_eq!(tags.len(), 4);
        assert_eq!(tags.get("Event"), Some("Démo"), "the first of a name");
        assert_eq!(tags.get("Round"), Some(""));
        assert_eq!(tags.get("Site"), None);
        assert_eq!(Tags::new([]).len(), 0);
        assert_eq!(Tags::new([]).iter().count(), 0);
    }

    #[test]
    fn tags_are_written_as_the_pairs_they_hold_and_read_back() {
        let list = [
            ("Event", "Démo \"quoted\""),
            ("Kind", "puzzle"),
            ("Empty", ""),
        ];
        let tags = Tags::new(list);
        let bytes = postcard::to_stdvec(&tags).unwrap();
        let read: Tags = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(read, tags);
        let none = postcard::to_stdvec(&Tags::new([])).unwrap();
        assert_eq!(postcard::from_bytes::<Tags>(&none).unwrap(), Tags::new([]));
        let json = serde_json::to_string(&tags).unwrap();
        assert_eq!(
            json,
            r#"[["Event","Démo \"quoted\""],["Kind","puzzle"],["Empty",""]]"#
        );
        assert_eq!(serde_json::from_str::<Tags>(&json).unwrap(), tags);
        assert!(
            serde_json::from_str::<Tags>(r#"[["Event"]]"#).is_err(),
            "a pair lacking its value"
        );
    }

    #[test]
    fn kept_tags_whose_ends_could_not_have_been_made_are_refused() {
        let read = |text: &str, ends: &[u32]| {
            postcard::from_bytes::<Tags>(&postcard::to_stdvec(&(text, ends)).unwrap()).ok()
        };
        assert_eq!(
            read("EventDémo", &[5, 10]),
            Some(Tags::new([("Event", "Démo")]))
        );
        assert_eq!(read("", &[]), Some(Tags::new([])));
        // A name without its value, ends out of order or past the text, one inside a character, text left over
        // after the last end, or an end for text there is not.
        for (text, ends) in [
            ("EventDémo", &[5][..]),
            ("EventDémo", &[6, 5, 10, 10]),
            ("EventDémo", &[5, 11]),
            ("EventDémo", &[7, 10]),
            ("EventDémo", &[5, 9]),
            ("", &[0, 1]),
            ("x", &[]),
        ] {
            assert_eq!(read(text, ends), None, "{text:?} {ends:?}");
        }
    }
}
