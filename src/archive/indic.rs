//! Words of the Indic scripts written in Latin letters, for page names: `बाघ चाल` is `bagh-chal` and
//! `பல்லாங்குழி` is `pallanguzhi`, as the games are spelt in English, where a letter-by-letter reading gives
//! `baagh-caal` and `pllaangkullli`.
//!
//! The scripts of India share one layout in Unicode: each has a block of 128 code points, and a letter sits at
//! the same place in every block (ka at 0x15, the vowel sign i at 0x3F, the virama at 0x4D). So one table
//! reads them all, with what differs kept apart: the vowel a consonant carries when nothing is written is
//! not said at the end of a word in the northern languages, nor between a vowel and a syllable that says its
//! own (Hindi `बाघ` is `bagh`, not `bagha`, and `शतरंज` `shatranj`), and Tamil voices its stops after a nasal
//! and between vowels (`ங்கு` is `ngu`, `ஆடு` is `adu`).
//!
//! The spelling is plain ASCII with no marks, long and short vowels alike, which is what readers type: a page
//! name is to be read and typed, not to round-trip to the script.

use unicode_normalization::UnicodeNormalization;

/// The first block (Devanagari) and the end of the last (Malayalam).
const FIRST: u32 = 0x0900;
const END: u32 = 0x0D80;

/// Devanagari, Bengali, Gurmukhi, Gujarati and Oriya: the scripts whose languages drop a word's last inherent
/// vowel.
const NORTHERN: [u32; 5] = [0x0900, 0x0980, 0x0A00, 0x0A80, 0x0B00];
const TAMIL: u32 = 0x0B80;
const GURMUKHI: u32 = 0x0A00;
const MALAYALAM: u32 = 0x0D00;

/// The block `c` belongs to, when it is one of the Indic scripts'.
pub fn block(c: char) -> Option<u32> {
    let code = u32::from(c);
    (FIRST..END).contains(&code).then_some(code & !0x7F)
}

/// A consonant, by its place in the block (which Tamil's rules look at) and how it is written.
#[derive(Clone, Copy, Debug)]
struct Consonant {
    place: u32,
    latin: &'static str,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Vowel {
    /// Nothing written after the consonant: it carries `a`.
    Inherent,
    Written(&'static str),
    /// A virama: the consonant carries none (the first of a cluster, or a word's end in Tamil).
    Silent,
}

#[derive(Clone, Debug)]
enum Unit {
    /// A consonant with its vowel, or a vowel on its own.
    Letter(Option<Consonant>, Vowel),
    /// An anusvara or candrabindu: `m` before p, b or m and at the end of a southern word, else `n`.
    Nasal,
    Text(&'static str),
}

/// What the code point at `place` in a block is, read the same way in every block.
enum Kind {
    Consonant(&'static str),
    Vowel(&'static str),
    Sign(&'static str),
    Virama,
    Nukta,
    Nasal,
    Text(&'static str),
    /// Read by no rule here: a mark of stress or length, or a letter of one script only.
    Other,
}

fn kind(place: u32) -> Kind {
    const CONSONANTS: [&str; 37] = [
        "k", "kh", "g", "gh", "ng", // 0x15
        "ch", "chh", "j", "jh", "ny", // 0x1A
        "t", "th", "d", "dh", "n", // 0x1F, retroflex
        "t", "th", "d", "dh", "n", // 0x24, dental
        "n", // 0x29, Tamil's alveolar n
        "p", "ph", "b", "bh", "m", // 0x2A
        "y", "r", "r", "l", "l", "zh", "v", // 0x2F
        "sh", "sh", "s", "h", // 0x36
    ];
    const VOWELS: [&str; 16] = [
        "a", "a", "a", "i", "i", "u", "u", "ri", "li", "e", "e", "e", "ai", "o", "o", "o",
    ];
    const SIGNS: [&str; 15] = [
        "a", "i", "i", "u", "u", "ri", "ri", "e", "e", "e", "ai", "o", "o", "o", "au",
    ];
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    // Letters with a nukta, written as one code point (Devanagari's, and the same places elsewhere).
    const NUKTA_LETTERS: [&str; 8] = ["q", "kh", "gh", "z", "r", "rh", "f", "y"];
    match place {
        0x01 | 0x02 => Kind::Nasal,
        0x03 => Kind::Text("h"),
        0x04..=0x13 => Kind::Vowel(VOWELS[(place - 0x04) as usize]),
        0x14 => Kind::Vowel("au"),
        0x15..=0x39 => Kind::Consonant(CONSONANTS[(place - 0x15) as usize]),
        0x3A => Kind::Sign("o"),
        0x3B => Kind::Sign("o"),
        0x3C => Kind::Nukta,
        0x3E..=0x4C => Kind::Sign(SIGNS[(place - 0x3E) as usize]),
        0x4D => Kind::Virama,
        0x4E => Kind::Sign("e"),
        0x4F => Kind::Sign("au"),
        0x50 => Kind::Text("om"),
        0x55 => Kind::Sign("e"),
        0x58..=0x5F => Kind::Consonant(NUKTA_LETTERS[(place - 0x58) as usize]),
        0x60 => Kind::Vowel("ri"),
        0x61 => Kind::Vowel("li"),
        0x62 | 0x63 => Kind::Sign("li"),
        0x66..=0x6F => Kind::Text(DIGITS[(place - 0x66) as usize]),
        _ => Kind::Other,
    }
}

/// How a nukta changes the consonant before it (Hindi's sounds from Persian, and its flapped r).
fn with_nukta(place: u32, latin: &'static str) -> &'static str {
    match place {
        0x15 => "q",
        0x16 => "kh",
        0x17 => "gh",
        0x1C => "z",
        0x21 => "r",
        0x22 => "rh",
        0x2B => "f",
        0x2F => "y",
        _ => latin,
    }
}

/// A word of one Indic script in Latin letters (ASCII), or `None` when `word` is not all of one such block or
/// reads as nothing.
/// The word may be decomposed (as folding leaves it): it is composed first, so that a vowel sign written in two
/// parts (Tamil's `ொ`) reads as one.
pub fn romanise(word: &str) -> Option<String> {
    // Looked at before composing: most words given here are of another script, and composing keeps the block.
    let first = block(word.chars().next()?)?;
    let composed: String = word.nfc().collect();
    if composed.chars().any(|c| block(c) != Some(first)) {
        return None;
    }
    let units = units(&composed, first);
    // A word of marks alone (a stray virama) reads as nothing, which is no reading.
    Some(spell(&units, first)).filter(|latin| !latin.is_empty())
}

/// The word's letters, signs and marks as units to spell.
fn units(word: &str, block: u32) -> Vec<Unit> {
    let mut units: Vec<Unit> = Vec::new();
    let mut double_next = false;
    for c in word.chars() {
        let place = u32::from(c) - block;
        // Letters of one script only: Gurmukhi's tippi (a nasal) and addak (the next consonant doubled), and
        // Malayalam's chillu letters (a consonant with no vowel).
        match (block, place) {
            (GURMUKHI, 0x70) => {
                units.push(Unit::Nasal);
                continue;
            }
            (GURMUKHI, 0x71) => {
                double_next = true;
                continue;
            }
            (MALAYALAM, 0x7A..=0x7F) => {
                let latin = ["n", "n", "r", "l", "l", "k"][(place - 0x7A) as usize];
                units.push(Unit::Letter(
                    Some(Consonant { place, latin }),
                    Vowel::Silent,
                ));
                continue;
            }
            _ => {}
        }
        match kind(place) {
            Kind::Consonant(latin) => {
                if std::mem::take(&mut double_next) {
                    let doubled = Consonant { place, latin };
                    units.push(Unit::Letter(Some(doubled), Vowel::Silent));
                }
                units.push(Unit::Letter(
                    Some(Consonant { place, latin }),
                    Vowel::Inherent,
                ));
            }
            Kind::Vowel(vowel) => units.push(Unit::Letter(None, Vowel::Written(vowel))),
            Kind::Nasal => units.push(Unit::Nasal),
            Kind::Text(text) => units.push(Unit::Text(text)),
            // A mark of stress or length, or a letter this table does not know: nothing to say.
            Kind::Other => {}
            // What follows a consonant changes it, while nothing else has.
            mark @ (Kind::Nukta | Kind::Sign(_) | Kind::Virama) => match units.last_mut() {
                Some(Unit::Letter(Some(consonant), vowel)) if *vowel == Vowel::Inherent => {
                    match mark {
                        Kind::Nukta => {
                            consonant.latin = with_nukta(consonant.place, consonant.latin);
                        }
                        Kind::Sign(sign) => *vowel = Vowel::Written(sign),
                        _ => *vowel = Vowel::Silent,
                    }
                }
                // A vowel sign with no consonant before it is still a vowel; a stray nukta or virama says
                // nothing.
                _ => {
                    if let Kind::Sign(sign) = mark {
                        units.push(Unit::Letter(None, Vowel::Written(sign)));
                    }
                }
            },
        }
    }
    units
}

/// The units in Latin letters.
fn spell(units: &[Unit], block: u32) -> String {
    let northern = NORTHERN.contains(&block);
    let unsaid = if northern {
        unsaid_vowels(units)
    } else {
        vec![false; units.len()]
    };
    let mut out = String::new();
    for (i, unit) in units.iter().enumerate() {
        match unit {
            Unit::Letter(consonant, vowel) => {
                if let Some(consonant) = consonant {
                    out.push_str(if let Some(n) = nasal_of_its_class(units, i, *consonant) {
                        n
                    } else if let Some(gy) = northern.then(|| gyan(units, i, *consonant)).flatten()
                    {
                        gy
                    } else if block == TAMIL {
                        tamil(units, i, *consonant)
                    } else {
                        consonant.latin
                    });
                }
                match vowel {
                    Vowel::Inherent if unsaid[i] => {}
                    Vowel::Inherent => out.push('a'),
                    Vowel::Written(vowel) => out.push_str(vowel),
                    Vowel::Silent => {}
                }
            }
            Unit::Nasal => {
                let labial = matches!(
                    units.get(i + 1),
                    Some(Unit::Letter(
                        Some(Consonant {
                            place: 0x2A..=0x2E,
                            ..
                        }),
                        _
                    ))
                );
                // At the end of a word the southern languages say it `m` (Telugu `జూదం` is `judam`).
                let last = !northern && units[i + 1..].iter().all(|u| matches!(u, Unit::Text(_)));
                out.push(if labial || last { 'm' } else { 'n' });
            }
            Unit::Text(text) => out.push_str(text),
        }
    }
    out
}

/// The velar and palatal nasals before a consonant of their own row are written `n`, as the stop after them
/// says which nasal it is: `ङ्ग` is `ng`, `ஞ்ச` is `nj` (not `ngg`, `nyj`).
fn nasal_of_its_class(units: &[Unit], i: usize, consonant: Consonant) -> Option<&'static str> {
    let (_, Vowel::Silent) = consonant_at(units, Some(i))? else {
        return None;
    };
    let (next, _) = consonant_at(units, Some(i + 1))?;
    match (consonant.place, next) {
        (0x19, 0x15..=0x18) | (0x1E, 0x1A..=0x1D) => Some("n"),
        _ => None,
    }
}

/// The place and vowel of the consonant at `at`, when one stands there.
fn consonant_at(units: &[Unit], at: Option<usize>) -> Option<(u32, Vowel)> {
    match units.get(at?)? {
        Unit::Letter(Some(c), vowel) => Some((c.place, *vowel)),
        _ => None,
    }
}

/// `ज्ञ` as the northern languages say it, `gy` (`ज्ञान` is `gyan`, not `jnyan`): the `g` for the `j` before the
/// virama, the `y` for the `ñ` after it.
fn gyan(units: &[Unit], i: usize, consonant: Consonant) -> Option<&'static str> {
    match consonant.place {
        0x1C if consonant_at(units, Some(i)).is_some_and(|(_, v)| v == Vowel::Silent)
            && consonant_at(units, Some(i + 1)).is_some_and(|(p, _)| p == 0x1E) =>
        {
            Some("g")
        }
        0x1E if consonant_at(units, i.checked_sub(1)) == Some((0x1C, Vowel::Silent)) => Some("y"),
        _ => None,
    }
}

/// Which consonants' inherent vowels a northern language leaves unsaid. The last consonant's (`बाघ` is `bagh`),
/// as [`drops_last_a`] says; then, from the end of the word back, one between a vowel and a consonant that
/// says its own: `बाघचाल` is `baghchal`, `शतरंज` `shatranj`, `कमला` `kamla`, while `कमल` stays `kamal`, as
/// the vowel after `m` is unsaid, and no word loses its first vowel. This is the rule readers of Hindi follow
/// without thinking; words it reads wrongly still read plainly.
fn unsaid_vowels(units: &[Unit]) -> Vec<bool> {
    let mut unsaid = vec![false; units.len()];
    if let Some(last) = units
        .iter()
        .rposition(|u| matches!(u, Unit::Letter(Some(_), _)))
    {
        unsaid[last] =
            matches!(units[last], Unit::Letter(_, Vowel::Inherent)) && drops_last_a(units, last);
    }
    let says_a_vowel = |at: usize, unsaid: &[bool]| match &units[at] {
        Unit::Letter(_, Vowel::Written(_)) => true,
        Unit::Letter(_, Vowel::Inherent) => !unsaid[at],
        _ => false,
    };
    for i in (1..units.len()).rev() {
        if unsaid[i] || !matches!(units[i], Unit::Letter(Some(_), Vowel::Inherent)) {
            continue;
        }
        let next_says_one = matches!(units.get(i + 1), Some(Unit::Letter(Some(_), _)))
            && says_a_vowel(i + 1, &unsaid);
        if says_a_vowel(i - 1, &unsaid) && next_says_one {
            unsaid[i] = true;
        }
    }
    unsaid
}

/// Whether the inherent vowel of the word's last consonant, at `i`, goes unsaid: not in a word of one letter
/// (`न`), nor after a cluster (`मित्र` is `mitra`), nor before a nasal sign.
fn drops_last_a(units: &[Unit], i: usize) -> bool {
    let after_cluster = matches!(
        i.checked_sub(1).map(|p| &units[p]),
        Some(Unit::Letter(Some(_), Vowel::Silent))
    );
    let letters = units
        .iter()
        .filter(|u| matches!(u, Unit::Letter(..)))
        .count();
    let nasal_after = units[i + 1..].iter().any(|u| matches!(u, Unit::Nasal));
    letters > 1 && !after_cluster && !nasal_after
}

/// A Tamil consonant as it is said where it stands. Tamil writes k, c, t and p alike whether voiced or not:
/// they are voiced after a nasal and between vowels, and not at the start of a word or doubled; `p` between
/// vowels keeps the spelling names have (`பாபநாசம்` is `papanasam`). `c` is said `s` but for `j` after a nasal
/// and `ch` doubled; `ற` doubled is `tr`, and after `ன்` it is `dr`.
fn tamil(units: &[Unit], i: usize, consonant: Consonant) -> &'static str {
    let before = consonant_at(units, i.checked_sub(1));
    let after = consonant_at(units, Some(i + 1));
    let own = consonant_at(units, Some(i)).map(|(_, vowel)| vowel);
    let doubled = before == Some((consonant.place, Vowel::Silent));
    let first_of_pair =
        own == Some(Vowel::Silent) && after.is_some_and(|(place, _)| place == consonant.place);
    let after_nasal = matches!(
        before,
        Some((0x19 | 0x1E | 0x23 | 0x28 | 0x29 | 0x2E, Vowel::Silent))
    ) || matches!(i.checked_sub(1).map(|p| &units[p]), Some(Unit::Nasal));
    let between_vowels = matches!(
        i.checked_sub(1).map(|p| &units[p]),
        Some(Unit::Letter(_, Vowel::Inherent | Vowel::Written(_)))
    );
    // The first of a doubled pair is said as the second is: not voiced.
    let voiced = !doubled && !first_of_pair && (after_nasal || between_vowels);
    match consonant.place {
        0x15 if voiced => "g",
        0x1A if first_of_pair => "",
        0x1A if doubled => "ch",
        0x1A if after_nasal => "j",
        0x1A => "s",
        0x1F if voiced => "d",
        0x24 if after_nasal => "d",
        0x24 if first_of_pair => "t",
        0x24 => "th",
        0x2A if after_nasal && !doubled => "b",
        0x31 if first_of_pair => "t",
        0x31 if before == Some((0x29, Vowel::Silent)) => "dr",
        _ => consonant.latin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latin(word: &str) -> String {
        romanise(word).unwrap_or_else(|| panic!("{word} is one Indic script's"))
    }

    #[test]
    fn northern_words_drop_the_last_inherent_vowel() {
        assert_eq!(latin("बाघ"), "bagh");
        assert_eq!(latin("चाल"), "chal");
        assert_eq!(latin("पचीसी"), "pachisi");
        // A nukta, written apart (as folding leaves it) or as one code point.
        assert_eq!(latin("चौपड़"), "chaupar");
        assert_eq!(latin("चौप\u{0921}\u{093C}"), "chaupar");
        // A vowel between a vowel and a consonant that says its own is unsaid too, from the end back.
        assert_eq!(latin("शतरंज"), "shatranj");
        assert_eq!(latin("बाघचाल"), "baghchal");
        assert_eq!(latin("कमला"), "kamla");
        assert_eq!(latin("कमल"), "kamal");
        assert_eq!(latin("अदरक"), "adrak");
        assert_eq!(latin("संगम"), "sangam");
        assert_eq!(latin("ज्ञान"), "gyan");
        assert_eq!(latin("मोक्षपट"), "mokshapat");
        // After a cluster the last vowel is said; a word of one letter keeps its vowel.
        assert_eq!(latin("मित्र"), "mitra");
        assert_eq!(latin("न"), "na");
        // An anusvara before a labial is m.
        assert_eq!(latin("चंपा"), "champa");
        // Gujarati and Bengali read by the same table.
        assert_eq!(latin("બાઘ"), "bagh");
        assert_eq!(latin("বাঘ"), "bagh");
    }

    #[test]
    fn tamil_voices_its_stops_after_a_nasal_and_between_vowels() {
        assert_eq!(latin("பல்லாங்குழி"), "pallanguzhi");
        assert_eq!(latin("ஆடு"), "adu");
        assert_eq!(latin("புலி"), "puli");
        assert_eq!(latin("ஆட்டம்"), "attam");
        assert_eq!(latin("தாயம்"), "thayam");
        assert_eq!(latin("பரமபதம்"), "paramapatham");
        assert_eq!(latin("தஞ்சாவூர்"), "thanjavur");
        assert_eq!(latin("பச்சை"), "pachai");
        assert_eq!(latin("ஒன்று"), "ondru");
        // A vowel sign in two parts (as canonical decomposition writes `ொ`) reads as one.
        assert_eq!(latin("கொ"), latin("\u{0B95}\u{0BC6}\u{0BBE}"));
        assert_eq!(latin("கொ"), "ko");
    }

    #[test]
    fn dravidian_words_keep_their_last_vowel() {
        assert_eq!(latin("ಚೌಕಾಬಾರ"), "chaukabara");
        assert_eq!(latin("పులి"), "puli");
        // A nasal sign at the end of a word is m in the south, n in the north (`ਬਾਰਾਂ`).
        assert_eq!(latin("జూదం"), "judam");
        assert_eq!(latin("ਬਾਰਾਂ"), "baran");
    }

    #[test]
    fn only_one_script_at_a_time() {
        assert_eq!(romanise("बाघ chal"), None);
        assert_eq!(romanise("बाघபுலி"), None);
        assert_eq!(romanise(""), None);
        // A word of marks alone reads as nothing, which is no reading.
        assert_eq!(romanise("\u{094D}"), None);
        assert_eq!(latin("१२"), "12");
    }
}
