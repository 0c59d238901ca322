//! Checks of the pictures records carry (`<image file="images/NAME" alt="...">caption</image>`): each names a
//! file of the item's `images/` folder that was read, holds a PNG, JPEG or WebP image of a size the site can
//! publish, and decodes to the end; each says in words what it shows. What passes is the image as the site
//! takes it ([`CheckedImage`]): its bytes, format and size, so that nothing later reads or sniffs the file again.
//!
//! A picture may come from anyone, so its size is read from its header and judged before anything is decoded,
//! and the decoder works under a cap on what it may allocate: a file claiming a billion pixels, or a small file
//! that would unpack into gigabytes, is a diagnostic rather than memory exhausted.

use std::collections::{HashMap, HashSet};
use std::io::Cursor;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::catalog::{Catalog, ImageFile, ImageRef, Item, image_name};
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::fingerprint::Hash;

/// The widest or tallest picture accepted, in pixels: a page scanned at 600 dpi is about 7,000 pixels tall.
pub const MAX_SIDE: u32 = 12_000;

/// The most pixels a picture may have: a 48-megapixel phone photograph passes.
pub const MAX_PIXELS: u64 = 50_000_000;

/// The most memory one decoder may ask for: the largest picture allowed, at 16 bits a channel with alpha, is
/// 400 MB; an 8-bit one, which is what photographs and scans are, 200 MB.
const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// The formats a record's picture may have: what every browser shows, and what cameras and scanners write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Png,
    Jpeg,
    WebP,
}

impl Format {
    fn of(format: image::ImageFormat) -> Option<Format> {
        match format {
            image::ImageFormat::Png => Some(Format::Png),
            image::ImageFormat::Jpeg => Some(Format::Jpeg),
            image::ImageFormat::WebP => Some(Format::WebP),
            _ => None,
        }
    }

    pub fn codec(self) -> image::ImageFormat {
        match self {
            Format::Png => image::ImageFormat::Png,
            Format::Jpeg => image::ImageFormat::Jpeg,
            Format::WebP => image::ImageFormat::WebP,
        }
    }

    /// The format's name in running text.
    pub fn name(self) -> &'static str {
        match self {
            Format::Png => "PNG",
            Format::Jpeg => "JPEG",
            Format::WebP => "WebP",
        }
    }

    /// The file name extensions of the format, the usual one first.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Png => &["png"],
            Format::Jpeg => &["jpg", "jpeg"],
            Format::WebP => &["webp"],
        }
    }

    pub fn media_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::WebP => "image/webp",
        }
    }
}

/// A picture of an item as checked.
#[derive(Clone, Debug)]
pub struct CheckedImage {
    /// Its name in the item's `images/` folder (`board.jpg`).
    pub name: String,
    /// What it shows, in words; `None` when the record gives none (a warning said so).
    pub alt: Option<String>,
    pub caption: Option<String>,
    pub format: Format,
    /// The size upright (after the EXIF orientation), in pixels.
    pub width: u32,
    pub height: u32,
    /// Some pixels are transparent (or could be): its copies keep an alpha channel.
    pub alpha: bool,
    pub bytes: Arc<[u8]>,
    /// A hash of the bytes: what the site's resized copies are made from.
    pub hash: Hash,
}

/// The decoder's limits: the size allowed, and the memory.
pub fn limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

/// Decode a picture under [`limits`], turned upright as its EXIF orientation says (a phone stores a portrait
/// photograph lying on its side, and browsers show the file itself upright). A decoder that panics on a hostile
/// file is taken as a file that does not decode: the picture is refused, the run goes on.
pub fn decode(bytes: &[u8], format: Format) -> Result<image::DynamicImage, String> {
    use image::ImageDecoder;
    let run = || -> image::ImageResult<image::DynamicImage> {
        let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format.codec());
        reader.limits(limits());
        let mut decoder = reader.into_decoder()?;
        let orientation = decoder.orientation()?;
        let mut picture = image::DynamicImage::from_decoder(decoder)?;
        picture.apply_orientation(orientation);
        Ok(picture)
    };
    let run = || run().map_err(|e| e.to_string());
    std::panic::catch_unwind(run)
        .unwrap_or_else(|_| Err("the decoder stopped on malformed data".to_string()))
}

/// What a picture's examination found: its format, size and transparency, or why it is refused.
type Examined = Result<Facts, Box<Diagnostic>>;

/// A picture's format, width, height and whether it has transparency.
type Facts = (Format, u32, u32, bool);

/// One item's pictures as checked, what was reported, and the examinations used.
type ItemImages = (
    Vec<CheckedImage>,
    Diagnostics,
    Vec<((Hash, String), Examined)>,
);

/// Every picture's examination, by its name and a hash of its bytes, kept from one check for the next (by the
/// preview server in memory, and by a build in the site it writes), so that an edit elsewhere decodes no picture
/// again: decoding a photograph takes tens of milliseconds, and an archive may show hundreds. Only what the last
/// check used is kept.
#[derive(Default)]
pub struct ImageCache {
    examined: HashMap<(Hash, String), Examined>,
    /// The last check's pictures taken as examined before, and all its pictures.
    taken: (usize, usize),
    /// What a build asks of a picture the check decodes (see [`ImageCache::scale_while_decoding`]).
    scaler: Option<Scaler>,
}

/// A copy of a picture made from it while the check had it decoded: its size and its bytes as the site writes
/// them.
pub struct Made {
    pub width: u32,
    pub height: u32,
    pub bytes: Vec<u8>,
}

/// Makes the copies the site needs of a decoded picture of the given format.
pub type Scaler = Arc<dyn Fn(&image::DynamicImage, Format) -> Vec<Made> + Send + Sync>;

/// The copies made while pictures were decoded for their check, by the hash of each picture's bytes, for the
/// render to write (two items may show the same picture, so they are lent, not handed over; they are held until
/// the build ends, about [`MADE_HELD`] of them at most).
#[derive(Default)]
pub struct MadeCopies(HashMap<Hash, Vec<Made>>);

impl MadeCopies {
    /// The copies made of the picture whose bytes have `hash`.
    pub fn of(&self, hash: &Hash) -> &[Made] {
        self.0.get(hash).map_or(&[], Vec::as_slice)
    }
}

/// The most bytes of copies made during the check that wait for the render at once (checked before each
/// picture is scaled, so the pictures being scaled side by side may pass it by a few): a photograph's two
/// copies are about 150 KB, so some four hundred photographs new to a build are decoded once; any further ones
/// are decoded again by the render rather than held.
const MADE_HELD: usize = 64 << 20;

/// What an [`ImageCache`] as a file starts with (see `fingerprint::seal`).
const CACHE_FORMAT: &[u8] = b"ludotheca pictures 1\n";

impl ImageCache {
    pub fn is_empty(&self) -> bool {
        self.examined.is_empty()
    }

    /// Have `scaler` make the site's copies of each picture the check decodes, while it is decoded: a build
    /// would otherwise decode it again to scale it, and decoding a photograph costs about as much as all the
    /// rest of its check and copies together.
    pub fn scale_while_decoding(&mut self, scaler: Scaler) {
        self.scaler = Some(scaler);
    }

    /// How many of the last check's pictures were taken as examined before, and how many it had.
    pub fn taken(&self) -> (usize, usize) {
        self.taken
    }

    /// The examinations that passed, as a sealed file (another program decodes and judges anew, and a damaged
    /// file is not believed): one line per picture, `hash format width height alpha name`, sorted.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut lines: Vec<String> = self
            .examined
            .iter()
            .filter_map(|((hash, name), examined)| {
                let (format, width, height, alpha) = examined.as_ref().ok()?;
                // A name with a line break in it could not be read back as one line: it is examined again.
                (!name.contains(['\n', '\r'])).then(|| {
                    format!(
                        "{} {} {width} {height} {} {name}\n",
                        crate::fingerprint::to_hex(hash),
                        format.extensions()[0],
                        u8::from(*alpha)
                    )
                })
            })
            .collect();
        lines.sort();
        crate::fingerprint::seal(CACHE_FORMAT, lines.concat().as_bytes())
    }

    /// The examinations a file of [`ImageCache::to_bytes`] holds: none when another program wrote it, or it
    /// is damaged in any way.
    pub fn from_bytes(bytes: &[u8]) -> ImageCache {
        Self::read(bytes, &crate::fingerprint::program()).unwrap_or_default()
    }

    fn read(bytes: &[u8], program: &Hash) -> Option<ImageCache> {
        let body = crate::fingerprint::unseal_for(CACHE_FORMAT, program, bytes)?;
        let mut examined = HashMap::new();
        for line in std::str::from_utf8(body).ok()?.lines() {
            let mut fields = line.splitn(6, ' ');
            let hash = crate::fingerprint::from_hex(fields.next()?)?;
            let ext = fields.next()?;
            let format = [Format::Png, Format::Jpeg, Format::WebP]
                .into_iter()
                .find(|f| f.extensions()[0] == ext)?;
            let width: u32 = fields.next()?.parse().ok()?;
            let height: u32 = fields.next()?.parse().ok()?;
            let alpha = match fields.next()? {
                "0" => false,
                "1" => true,
                _ => return None,
            };
            let name = fields.next()?.to_string();
            examined.insert((hash, name), Ok((format, width, height, alpha)));
        }
        Some(ImageCache {
            examined,
            taken: (0, 0),
            scaler: None,
        })
    }
}

/// Check every item's pictures, in parallel; one list per item of `catalog.items` (same index), holding the
/// pictures that passed, in record order. `cache` gives the pictures examined by the previous run, and is left
/// holding this run's.
pub fn check_images(
    catalog: &Catalog,
    diagnostics: &mut Diagnostics,
    cache: &mut ImageCache,
) -> (Vec<Vec<CheckedImage>>, MadeCopies) {
    let known = &cache.examined;
    let made = Making {
        scaler: cache.scaler.as_ref(),
        copies: std::sync::Mutex::default(),
        held: AtomicUsize::new(0),
    };
    // Pictures taken as examined before, and pictures looked at (one shown twice counts twice).
    let counts = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let each: Vec<ItemImages> = catalog
        .items
        .par_iter()
        .map(|item| {
            let mut own = Diagnostics::new();
            let mut used = Vec::new();
            let images = if item.images.is_empty() {
                Vec::new()
            } else {
                check_item(catalog, item, &mut own, (known, &made), &mut used, &counts)
            };
            (images, own, used)
        })
        .collect();
    let mut kept = HashMap::new();
    let images = each
        .into_iter()
        .map(|(images, own, used)| {
            for diagnostic in own.into_vec() {
                diagnostics.push(diagnostic);
            }
            kept.extend(used);
            images
        })
        .collect();
    let [taken, all] = counts;
    cache.taken = (taken.into_inner(), all.into_inner());
    cache.examined = kept;
    let copies = made.copies.into_inner().unwrap_or_else(|e| e.into_inner());
    (images, MadeCopies(copies))
}

/// The copies a check makes while it decodes, and how many bytes of them it holds.
struct Making<'a> {
    scaler: Option<&'a Scaler>,
    copies: std::sync::Mutex<HashMap<Hash, Vec<Made>>>,
    held: AtomicUsize,
}

/// A picture a record names and the catalog holds: the record's `<image>`, the file's name and its bytes.
/// (Where the record names its file, for what the examination finds.)
type Found<'a> = (&'a ImageRef, &'a str, &'a Arc<[u8]>, crate::source::Span);

fn check_item(
    catalog: &Catalog,
    item: &Item,
    diagnostics: &mut Diagnostics,
    (known, made): (&HashMap<(Hash, String), Examined>, &Making),
    used: &mut Vec<((Hash, String), Examined)>,
    counts: &[AtomicUsize; 2],
) -> Vec<CheckedImage> {
    let at = |d: Diagnostic, span| d.at(&catalog.files, item.file, span);
    // First what the record says of each picture, in order; then the pictures found are examined side by side,
    // since decoding a photograph takes a tenth of a second and a board is often photographed several times;
    // then everything is reported in the record's order.
    let mut seen = HashSet::new();
    let mut slots: Vec<(Vec<Diagnostic>, Option<Found>)> = Vec::new();
    for image in &item.images {
        let mut said = Vec::new();
        check_alt(image, &mut |d, span| said.push(at(d, span)));
        let found = find(image, item, &mut seen, &mut |d, span| {
            said.push(at(d, span))
        });
        slots.push((
            said,
            found.map(|(name, bytes, span)| (image, name, bytes, span)),
        ));
    }
    let examined: Vec<Option<(Hash, Examined)>> = slots
        .par_iter()
        .map(|(_, found)| {
            let (_, name, bytes, _) = found.as_ref()?;
            let hash = *blake3::hash(bytes).as_bytes();
            counts[1].fetch_add(1, Ordering::Relaxed);
            let examined = match known.get(&(hash, name.to_string())) {
                Some(examined) => {
                    counts[0].fetch_add(1, Ordering::Relaxed);
                    examined.clone()
                }
                None => match examine(name, bytes) {
                    Ok((facts, picture)) => {
                        if let Some(scaler) = made.scaler
                            && made.held.load(Ordering::Relaxed) < MADE_HELD
                        {
                            let copies = scaler(&picture, facts.0);
                            let size: usize = copies.iter().map(|c| c.bytes.len()).sum();
                            made.held.fetch_add(size, Ordering::Relaxed);
                            let mut held = made.copies.lock().unwrap_or_else(|e| e.into_inner());
                            held.insert(hash, copies);
                        }
                        Ok(facts)
                    }
                    Err(diagnostic) => Err(diagnostic),
                },
            };
            Some((hash, examined))
        })
        .collect();
    let mut checked = Vec::new();
    for ((said, found), examined) in slots.into_iter().zip(examined) {
        for diagnostic in said {
            diagnostics.push(diagnostic);
        }
        let (Some((image, name, bytes, file_span)), Some((hash, examined))) = (found, examined)
        else {
            continue;
        };
        used.push(((hash, name.to_string()), examined.clone()));
        match examined {
            Ok((format, width, height, alpha)) => checked.push(CheckedImage {
                name: name.to_string(),
                alt: image
                    .alt
                    .as_ref()
                    .map(|a| a.value.trim().to_string())
                    .filter(|a| !a.is_empty()),
                // Written over several lines of the record, read as one.
                caption: Some(
                    image
                        .caption
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                )
                .filter(|c| !c.is_empty()),
                format,
                width,
                height,
                alpha,
                hash,
                bytes: Arc::clone(bytes),
            }),
            Err(diagnostic) => diagnostics.push(at(*diagnostic, file_span)),
        }
    }
    checked
}

/// The picture `image` names, by its name in the item's `images/` folder, its bytes and where the record names
/// the file, when the name is one a picture may have, not named before in the record (`seen`), and the file was
/// read; what is wrong otherwise is reported.
fn find<'a>(
    image: &'a ImageRef,
    item: &'a Item,
    seen: &mut HashSet<&'a str>,
    report: &mut impl FnMut(Diagnostic, crate::source::Span),
) -> Option<(&'a str, &'a Arc<[u8]>, crate::source::Span)> {
    let Some(file) = &image.file else {
        report(
            Diagnostic::error("E045", "this image names no file").with_help(
                "name the picture's file: `<image file=\"images/board.jpg\" alt=\"...\">`",
            ),
            image.span.clone(),
        );
        return None;
    };
    let Some(name) = image_name(&file.value) else {
        report(
            Diagnostic::error(
                "E045",
                format!("`{}` is not a file name in the item's `images/` folder", file.value),
            )
            .with_note(
                "a picture lies in `images/` beside record.xml, named in lowercase letters, digits, `-` and \
                 `_` with one extension, so that its address on the site is the same on every system",
            )
            .with_help(suggest_name(&file.value)),
            file.span.clone(),
        );
        return None;
    };
    if !seen.insert(name) {
        report(
            Diagnostic::error("E045", format!("`images/{name}` is named by two images"))
                .with_help("keep one `<image>` for each picture"),
            file.span.clone(),
        );
        return None;
    }
    match &image.found {
        ImageFile::Read(bytes) => Some((name, bytes, file.span.clone())),
        // The reader said why.
        ImageFile::Refused => None,
        ImageFile::Absent | ImageFile::Unread => {
            let folder = item.folder.join("images");
            report(
                Diagnostic::error(
                    "E045",
                    format!("there is no file `images/{name}` beside this record"),
                )
                .with_help(format!(
                    "put the picture in `{}`, or correct the name",
                    folder.display()
                )),
                file.span.clone(),
            );
            None
        }
    }
}

/// W008: a picture without words for readers who cannot see it.
fn check_alt(image: &ImageRef, report: &mut impl FnMut(Diagnostic, crate::source::Span)) {
    let named = image
        .file
        .as_ref()
        .map_or("this image".to_string(), |f| format!("`{}`", f.value));
    let help = "say what the picture shows, for readers who cannot see it: \
                `alt=\"A board of 5 by 5 points scratched into a rock, with a river behind\"`";
    match &image.alt {
        None => report(
            Diagnostic::warning("W008", format!("{named} has no alternative text")).with_help(help),
            image.span.clone(),
        ),
        Some(alt) if alt.value.trim().is_empty() => report(
            Diagnostic::warning("W008", format!("the alternative text of {named} is empty"))
                .with_help(help),
            alt.span.clone(),
        ),
        Some(_) => {}
    }
}

/// A name the site can publish, made from the one written: for the help of E045.
fn suggest_name(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let (stem, ext) = base.rsplit_once('.').unwrap_or((base, "jpg"));
    let clean = |s: &str, keep: &[char]| -> String {
        let mut out = String::new();
        for c in s.chars().flat_map(char::to_lowercase) {
            if c.is_ascii_alphanumeric() || keep.contains(&c) {
                out.push(c);
            } else if !out.ends_with('-') {
                out.push('-');
            }
        }
        out.trim_matches(['-', '_']).to_string()
    };
    let stem = Some(clean(stem, &['-', '_'])).filter(|s| !s.is_empty());
    let ext = Some(clean(ext, &[])).filter(|s| !s.is_empty());
    format!(
        "put the picture in `images/` and name it like `images/{}.{}`",
        stem.as_deref().unwrap_or("picture"),
        ext.as_deref().unwrap_or("jpg")
    )
}

/// The format and size of a picture's bytes, after making sure it is a format the site takes, named by its
/// extension, within the size limits, and decodes to the end; with the picture as decoded.
fn examine(name: &str, bytes: &[u8]) -> Result<(Facts, image::DynamicImage), Box<Diagnostic>> {
    let shown = format!("images/{name}");
    let guessed = image::guess_format(bytes).ok();
    let Some(format) = guessed.and_then(Format::of) else {
        let what = match guessed {
            Some(other) => format!(
                "a {} image",
                other
                    .extensions_str()
                    .first()
                    .copied()
                    .unwrap_or("other")
                    .to_uppercase()
            ),
            None => "no image format ludotheca knows".to_string(),
        };
        return Err(Box::new(
            Diagnostic::error(
                "E046",
                format!("`{shown}` is not a PNG, JPEG or WebP image"),
            )
            .with_note(format!("its first bytes are those of {what}"))
            .with_help("save it as JPEG (photographs, scans) or PNG (drawings, diagrams)"),
        ));
    };
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if !format.extensions().contains(&ext) {
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        return Err(Box::new(
            Diagnostic::error(
                "E046",
                format!(
                    "`{shown}` holds a {} image, not what its name says",
                    format.name()
                ),
            )
            .with_help(format!(
                "rename the file `images/{stem}.{}` and the `file` attribute with it",
                format.extensions()[0]
            )),
        ));
    }
    let damaged = |err: String| {
        Box::new(
            Diagnostic::error(
                "E047",
                format!(
                    "`{shown}` cannot be read as a {} image: {err}",
                    format.name()
                ),
            )
            .with_help(
                "open it in an image editor and save it again, or replace it with a good copy",
            ),
        )
    };
    // The size first, from the header alone: nothing is decoded from a picture that is too large.
    let mut header = image::ImageReader::with_format(Cursor::new(bytes), format.codec());
    header.no_limits();
    let (width, height) = header
        .into_dimensions()
        .map_err(|e| damaged(e.to_string()))?;
    let pixels = u64::from(width) * u64::from(height);
    if width > MAX_SIDE || height > MAX_SIDE || pixels > MAX_PIXELS || width == 0 || height == 0 {
        return Err(Box::new(Diagnostic::error(
            "E047",
            format!("`{shown}` is {width} × {height} pixels, which is more than a page can show"),
        )
        .with_note(format!(
            "a picture may be at most {MAX_SIDE} pixels wide or tall and {} million pixels in all",
            MAX_PIXELS / 1_000_000
        ))
        .with_help(
            "scale it down (the site shows it at most 960 pixels wide and links the file itself)",
        )));
    }
    let picture = decode(bytes, format).map_err(damaged)?;
    Ok((
        (
            format,
            picture.width(),
            picture.height(),
            picture.color().has_alpha(),
        ),
        picture,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Examinations of three good pictures, one refused, and one whose name could not be one line of a file.
    fn examined() -> ImageCache {
        let good = |n: u8, format, w, h, alpha| {
            (([n; 32], format!("pic {n}.x")), Ok((format, w, h, alpha)))
        };
        let mut examined: HashMap<(Hash, String), Examined> = HashMap::from([
            good(1, Format::Png, 640, 480, true),
            good(2, Format::Jpeg, 4000, 3000, false),
            good(3, Format::WebP, 1, 12_000, false),
        ]);
        examined.insert(
            ([4; 32], "broken.png".to_string()),
            Err(Box::new(Diagnostic::error("E047", "damaged"))),
        );
        examined.insert(
            ([5; 32], "two\nlines.png".to_string()),
            Ok((Format::Png, 2, 2, false)),
        );
        ImageCache {
            examined,
            taken: (0, 0),
            scaler: None,
        }
    }

    #[test]
    fn examined_pictures_read_back_as_written_and_only_from_an_intact_file_of_this_program() {
        let cache = examined();
        let bytes = cache.to_bytes();
        assert_eq!(
            bytes,
            examined().to_bytes(),
            "the same examinations, the same bytes"
        );
        let read = ImageCache::from_bytes(&bytes);
        let mut expected: Vec<_> = cache
            .examined
            .iter()
            .filter(|((hash, _), e)| e.is_ok() && hash[0] != 5)
            .map(|(k, e)| (k.clone(), e.as_ref().ok().copied()))
            .collect();
        let mut got: Vec<_> = read
            .examined
            .iter()
            .map(|(k, e)| (k.clone(), e.as_ref().ok().copied()))
            .collect();
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(got, expected, "the good pictures, each as examined");
        assert_eq!(got.len(), 3);

        // Any byte changed, the file cut short or lengthened, or another program's: nothing is believed.
        for at in [0, bytes.len() / 3, bytes.len() / 2, bytes.len() - 2] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x01;
            assert!(
                ImageCache::from_bytes(&damaged).is_empty(),
                "byte {at} changed"
            );
        }
        assert!(ImageCache::from_bytes(&bytes[..bytes.len() - 1]).is_empty());
        assert!(ImageCache::from_bytes(&[&bytes[..], b"\n"].concat()).is_empty());
        assert!(ImageCache::from_bytes(b"").is_empty());
        assert!(
            ImageCache::read(&bytes, &[9; 32]).is_none(),
            "another program's"
        );
        assert!(ImageCache::read(&bytes, &crate::fingerprint::program()).is_some());
    }

    #[test]
    fn names_are_suggested_from_what_was_written() {
        assert_eq!(
            suggest_name("Photos/Board Front.JPG"),
            "put the picture in `images/` and name it like `images/board-front.jpg`"
        );
        assert_eq!(
            suggest_name("images/"),
            "put the picture in `images/` and name it like `images/picture.jpg`"
        );
    }

    #[test]
    fn a_header_claiming_a_huge_picture_is_refused_before_decoding() {
        // A PNG signature, a header of 100,000 × 100,000 pixels, and the start of an image data chunk: a few
        // dozen bytes claiming 40 GB of pixels.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend(100_000u32.to_be_bytes());
        png.extend(100_000u32.to_be_bytes());
        png.extend([8, 6, 0, 0, 0]);
        png.extend(crc(&png[12..]).to_be_bytes());
        png.extend(b"\0\0\0\x08IDAT\x78\x9c\x63\x00\x00\x00\x01\x00");
        let at = png.len() - 12;
        png.extend(crc(&png[at..]).to_be_bytes());
        let Err(err) = examine("huge.png", &png) else {
            panic!("a picture too large was decoded");
        };
        assert_eq!(err.code, "E047");
        assert!(err.message.contains("100000 × 100000"), "{}", err.message);
    }

    /// The CRC-32 of a PNG chunk (type and data).
    fn crc(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
}
