//! The pictures records carry, on the site: each published as it is in the catalog, with two copies scaled down
//! (a thumbnail for lists and a display copy for the item's page), so that a page never makes a reader load a
//! 6,000-pixel scan to show it 40 em wide.
//!
//! Scaling is the costly part of a build that has pictures, so a copy is made only when the previous site has
//! none made from the same bytes by the same program: its manifest records, for each copy, the hash of what it
//! was made from, and an unchanged copy is kept as the previous site's file (a hard link) without decoding the
//! picture at all. Where a copy goes and how large it is follow from the checked picture alone, so that pages
//! can name it before, or without, it being made.

use std::sync::atomic::{AtomicUsize, Ordering};

use image::DynamicImage;
use rayon::prelude::*;
use serde_json::{Value, json};

use super::output::{Hash, Staging};
use crate::archive::{Archive, Entry};
use crate::check::CheckedImage;
use crate::check::media::{Format, Made, decode};

/// The width of a thumbnail, in pixels: a browse row shows it at 80 px, sharp on a screen of 4 pixels a point.
pub const THUMBNAIL: u32 = 320;

/// The width of the copy an item's page shows: the page's text column is 40 em, 640 px at most, and 960 keeps
/// it sharp at one and a half pixels a point.
pub const DISPLAY: u32 = 960;

/// JPEG quality of the scaled copies of photographs: no artefact shows at these sizes.
const JPEG_QUALITY: u8 = 85;

/// One file of a picture on the site: where it is (from the site's root) and its size in pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub path: String,
    pub width: u32,
    pub height: u32,
}

/// How many pictures a build scaled, how many of those it scaled while the check had them decoded, and how
/// many it kept from the previous site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub scaled: usize,
    pub while_checked: usize,
    pub kept: usize,
}

/// The format of a picture's scaled copies: PNG for drawings and anything with transparency, which JPEG would
/// blur or lose, JPEG for photographs.
fn copy_format(format: Format, alpha: bool) -> Format {
    match format {
        Format::Png => Format::Png,
        _ if alpha => Format::Png,
        _ => Format::Jpeg,
    }
}

/// The size of a picture's copy at most `width` pixels wide: none when the picture is no wider, and is shown as
/// it is.
fn copy_size(picture: (u32, u32), width: u32) -> Option<(u32, u32)> {
    if picture.0 <= width {
        return None;
    }
    // Rounded to the nearest pixel, never to nothing: a picture 12,000 pixels wide and 1 high stays 1 high.
    let height =
        (u64::from(picture.1) * u64::from(width) + u64::from(picture.0) / 2) / u64::from(picture.0);
    Some((width, u32::try_from(height.max(1)).unwrap_or(u32::MAX)))
}

/// The copies a build makes of a picture while the check has it decoded (see
/// [`crate::check::media::ImageCache::scale_while_decoding`]): the same bytes [`write_images`] would make of it.
pub fn copies_while_decoded(picture: &DynamicImage, format: Format) -> Vec<Made> {
    let copy_format = copy_format(format, picture.color().has_alpha());
    // Each copy scaled and encoded on a core of its own, where one is free: the encoder is most of a picture's
    // work, and a small catalog's check waits for its pictures.
    [DISPLAY, THUMBNAIL]
        .into_par_iter()
        .filter_map(|width| copy_size((picture.width(), picture.height()), width))
        .filter_map(|(width, height)| {
            // A copy that cannot be made here is left to the render, which says why.
            let bytes = encode(picture, (width, height), copy_format).ok()?;
            Some(Made {
                width,
                height,
                bytes,
            })
        })
        .collect()
}

/// The picture as published: `<dir>images/<name>`.
pub fn original(dir: &str, image: &CheckedImage) -> Variant {
    Variant {
        path: format!("{dir}images/{}", image.name),
        width: image.width,
        height: image.height,
    }
}

/// The picture at most `width` pixels wide: the picture itself when it is no wider, else its copy
/// `<dir>images/<width>/<name>`, whose extension is that of its format (`board.webp` becomes `board.webp.jpg`,
/// which no catalog name can be, since those have one dot).
pub fn scaled(dir: &str, image: &CheckedImage, width: u32) -> Variant {
    let Some((width, height)) = copy_size((image.width, image.height), width) else {
        return original(dir, image);
    };
    let format = copy_format(image.format, image.alpha);
    let (stem, ext) = image
        .name
        .rsplit_once('.')
        .unwrap_or((image.name.as_str(), ""));
    let name = if format.extensions().contains(&ext) {
        image.name.clone()
    } else {
        format!("{stem}.{ext}.{}", format.extensions()[0])
    };
    Variant {
        path: format!("{dir}images/{width}/{name}"),
        width,
        height,
    }
}

/// What a scaled copy is made from: the picture's bytes, the copy's size, and the program that scales.
fn copy_inputs(program: &Hash, image: &CheckedImage, variant: &Variant) -> Hash {
    crate::fingerprint::key(
        program,
        [
            &image.hash[..],
            &variant.width.to_le_bytes()[..],
            &variant.height.to_le_bytes()[..],
            variant.path.as_bytes(),
        ],
    )
}

/// Put every picture of the archive and its scaled copies into the staged site, scaling only those the
/// previous site has no copies of from the same bytes.
pub fn write_images(
    archive: &Archive,
    staging: &Staging,
    program: &Hash,
) -> Result<Counts, String> {
    let scaled_count = AtomicUsize::new(0);
    let while_checked = AtomicUsize::new(0);
    let kept = AtomicUsize::new(0);
    let all: Vec<(&Entry, &CheckedImage)> = archive
        .entries
        .iter()
        .flat_map(|e| e.images.iter().map(move |i| (e, i)))
        .collect();
    all.par_iter().try_for_each(|(entry, image)| {
        let whole = original(&entry.dir, image);
        staging.put(&whole.path, &image.bytes, Some(image.hash))?;
        let copies: Vec<Variant> = [DISPLAY, THUMBNAIL]
            .into_iter()
            .map(|width| scaled(&entry.dir, image, width))
            .filter(|copy| *copy != whole)
            .collect();
        if copies.is_empty() {
            // Small enough to be shown as it is: nothing to scale, nothing to count.
            return Ok(());
        }
        let mut to_make = Vec::new();
        for copy in copies {
            let inputs = copy_inputs(program, image, &copy);
            if !staging.keep_if_unchanged(&copy.path, inputs)? {
                to_make.push((copy, inputs));
            }
        }
        if to_make.is_empty() {
            kept.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        // The copies the check made while it had the picture decoded, when it did; the picture is decoded
        // again only for a copy it did not make.
        let made = archive.made_copies.of(&image.hash);
        let mut picture = None;
        for (copy, inputs) in to_make {
            let ready = made
                .iter()
                .find(|m| (m.width, m.height) == (copy.width, copy.height));
            let bytes = match ready {
                Some(made) => std::borrow::Cow::Borrowed(&made.bytes[..]),
                None => {
                    if picture.is_none() {
                        // The check decoded it already, so this cannot fail on a catalog that passed; said
                        // plainly if it does.
                        let decoded = decode(&image.bytes, image.format)
                            .map_err(|e| format!("{}{}: {e}", entry.dir, image.name))?;
                        picture = Some(decoded);
                    }
                    let picture = picture.as_ref().expect("decoded just above");
                    let size = (copy.width, copy.height);
                    let bytes = encode(picture, size, copy_format(image.format, image.alpha))
                        .map_err(|e| format!("cannot scale `{}`: {e}", copy.path))?;
                    std::borrow::Cow::Owned(bytes)
                }
            };
            staging.put(&copy.path, &bytes, Some(inputs))?;
        }
        scaled_count.fetch_add(1, Ordering::Relaxed);
        if picture.is_none() {
            while_checked.fetch_add(1, Ordering::Relaxed);
        }
        Ok::<(), String>(())
    })?;
    Ok(Counts {
        scaled: scaled_count.into_inner(),
        while_checked: while_checked.into_inner(),
        kept: kept.into_inner(),
    })
}

/// The picture scaled to `size` (width, height), in `format`. Area averaging (a box filter as wide as the step
/// between output pixels) is what shrinking by large factors needs: every source pixel counts once, so fine lines
/// neither vanish nor alias; transparent pixels are weighted by their opacity, so no dark fringe shows along an
/// edge. Each copy is made from the picture itself, never from another copy, so that a copy's bytes do not depend
/// on which of its siblings the previous site already had. The render and the check's copies both go through it.
fn encode(picture: &DynamicImage, size: (u32, u32), format: Format) -> Result<Vec<u8>, String> {
    let small = shrink(picture, size.0, size.1)?;
    write(&small, format).map_err(|e| e.to_string())
}

/// `picture` at `width` x `height`, in its own pixel layout where the scaler has one (every layout the three
/// formats decode to), else in 8-bit RGBA, which is what its copy is written in anyway.
fn shrink(picture: &DynamicImage, width: u32, height: u32) -> Result<DynamicImage, String> {
    shrink_with(
        &mut fast_image_resize::Resizer::new(),
        picture,
        width,
        height,
    )
}

/// [`shrink`] by `resizer` (which a test sets to each of the CPU's instruction sets in turn).
fn shrink_with(
    resizer: &mut fast_image_resize::Resizer,
    picture: &DynamicImage,
    width: u32,
    height: u32,
) -> Result<DynamicImage, String> {
    use fast_image_resize::{FilterType, IntoImageView, ResizeAlg, ResizeOptions};
    let converted;
    let source = if picture.pixel_type().is_some() {
        picture
    } else {
        converted = DynamicImage::ImageRgba8(picture.to_rgba8());
        &converted
    };
    let mut small = DynamicImage::new(width, height, source.color());
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Box));
    resizer
        .resize(source, &mut small, &options)
        .map_err(|e| e.to_string())?;
    Ok(small)
}

/// A scaled copy's bytes in `format`.
fn write(small: &DynamicImage, format: Format) -> image::ImageResult<Vec<u8>> {
    let mut bytes = Vec::new();
    match format {
        Format::Jpeg => {
            let encoder =
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, JPEG_QUALITY);
            DynamicImage::ImageRgb8(small.to_rgb8()).write_with_encoder(encoder)?;
        }
        _ => {
            // `Best` took four times the CPU for files 11% smaller (docs/performance.md, "Pictures").
            let encoder = image::codecs::png::PngEncoder::new_with_quality(
                &mut bytes,
                image::codecs::png::CompressionType::Default,
                image::codecs::png::FilterType::Adaptive,
            );
            let small = if small.color().has_alpha() {
                DynamicImage::ImageRgba8(small.to_rgba8())
            } else {
                DynamicImage::ImageRgb8(small.to_rgb8())
            };
            small.write_with_encoder(encoder)?;
        }
    }
    Ok(bytes)
}

/// The pictures of an item's page, for its template: relative to the page, which is in `entry.dir`.
pub fn page_images(entry: &Entry) -> Vec<Value> {
    entry
        .images
        .iter()
        .map(|image| {
            let relative = |v: Variant| Variant {
                path: v.path[entry.dir.len()..].to_string(),
                ..v
            };
            let whole = relative(original(&entry.dir, image));
            let display = relative(scaled(&entry.dir, image, DISPLAY));
            let thumbnail = relative(scaled(&entry.dir, image, THUMBNAIL));
            // Narrow screens take the thumbnail where it is sharp enough; the browser picks by width.
            let srcset = if thumbnail.path != display.path {
                format!(
                    "{} {}w, {} {}w",
                    thumbnail.path, thumbnail.width, display.path, display.width
                )
            } else {
                String::new()
            };
            json!({
                "src": display.path,
                "width": display.width,
                "height": display.height,
                "srcset": srcset,
                "href": whole.path,
                "original": format!("{} × {} pixels, {}, {}", whole.width, whole.height,
                    image.format.name(), size_in_words(image.bytes.len())),
                "alt": image.alt.as_deref().unwrap_or(""),
                "caption": image.caption,
            })
        })
        .collect()
}

/// An item's thumbnail for lists (its first picture), relative to a page at `root`.
pub fn thumbnail(entry: &Entry, root: &str) -> Option<Value> {
    let image = entry.images.first()?;
    let thumbnail = scaled(&entry.dir, image, THUMBNAIL);
    Some(json!({
        "src": format!("{root}{}", thumbnail.path),
        "width": thumbnail.width,
        "height": thumbnail.height,
    }))
}

/// An item's pictures for its JSON-LD (`image`): each an `ImageObject` at its address (absolute when the site
/// has one, else relative to the item's page), with its size, format and words.
pub fn json_ld(entry: &Entry, base_url: Option<&str>) -> Value {
    entry
        .images
        .iter()
        .map(|image| {
            let whole = original(&entry.dir, image);
            let url = match base_url {
                Some(base) => format!("{base}{}", whole.path),
                None => whole.path[entry.dir.len()..].to_string(),
            };
            let mut object = json!({
                "@type": "ImageObject",
                "contentUrl": url,
                "encodingFormat": image.format.media_type(),
                "width": pixels(whole.width),
                "height": pixels(whole.height),
            });
            if let Some(caption) = &image.caption {
                object["caption"] = json!(caption);
            }
            if let Some(alt) = &image.alt {
                object["description"] = json!(alt);
            }
            object
        })
        .collect()
}

/// An item's pictures for the data exports (`images` of catalog.json): each the address of the picture itself
/// from the site's root (where the catalog folder's `images/` is published), its size, media type, alt text
/// and caption.
pub fn exported(entry: &Entry) -> Vec<Value> {
    entry
        .images
        .iter()
        .map(|image| {
            let whole = original(&entry.dir, image);
            json!({
                "url": whole.path,
                "type": image.format.media_type(),
                "width": whole.width,
                "height": whole.height,
                "alt": image.alt,
                "caption": image.caption,
            })
        })
        .collect()
}

/// The addresses of an item's pictures from the site's root, in the record's order (for catalog.csv and
/// OAI-PMH, which give a picture by its address alone).
pub fn addresses(entry: &Entry) -> Vec<String> {
    entry
        .images
        .iter()
        .map(|image| original(&entry.dir, image).path)
        .collect()
}

/// A length in pixels as schema.org gives one: a `QuantitativeValue` in UN/CEFACT's unit E37, the pixel.
fn pixels(n: u32) -> Value {
    json!({ "@type": "QuantitativeValue", "value": n, "unitCode": "E37" })
}

fn size_in_words(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(name: &str, format: Format, width: u32, height: u32, alpha: bool) -> CheckedImage {
        CheckedImage {
            name: name.to_string(),
            alt: None,
            caption: None,
            format,
            width,
            height,
            alpha,
            bytes: std::sync::Arc::from(&b""[..]),
            hash: [0; 32],
        }
    }

    #[test]
    fn copies_keep_the_proportions_and_never_grow() {
        let photo = image("board.jpg", Format::Jpeg, 4000, 3000, false);
        let thumb = scaled("boards/x/", &photo, THUMBNAIL);
        assert_eq!(
            (thumb.path.as_str(), thumb.width, thumb.height),
            ("boards/x/images/320/board.jpg", 320, 240)
        );
        let small = image("small.png", Format::Png, 300, 100, false);
        assert_eq!(
            scaled("boards/x/", &small, THUMBNAIL),
            original("boards/x/", &small)
        );
        let thin = image("thin.png", Format::Png, 12000, 1, false);
        assert_eq!(scaled("a/", &thin, THUMBNAIL).height, 1);
    }

    /// A picture of `width` x `height` whose every pixel is `pixel(x, y)`.
    fn picture(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> DynamicImage {
        DynamicImage::ImageRgba8(image::RgbaImage::from_fn(width, height, |x, y| {
            image::Rgba(pixel(x, y))
        }))
    }

    #[test]
    fn shrinking_averages_areas_and_weighs_colour_by_opacity() {
        // Fine lines, one pixel black and one white: halved, every pixel is their average, not one of them.
        let lines = picture(64, 64, |x, _| {
            let v = if x % 2 == 0 { 0 } else { 255 };
            [v, v, v, 255]
        });
        let half = shrink(&lines, 32, 32).unwrap().to_rgba8();
        assert!(
            half.pixels()
                .all(|p| (126..=129).contains(&p[0]) && p[3] == 255),
            "{:?}",
            half.get_pixel(5, 5)
        );
        // White beside nothing at all (transparent black): the edge fades out still white, not grey.
        let edge = picture(64, 64, |x, _| {
            if x < 31 {
                [255, 255, 255, 255]
            } else {
                [0, 0, 0, 0]
            }
        });
        let small = shrink(&edge, 16, 16).unwrap().to_rgba8();
        let fading = small.get_pixel(7, 8);
        assert!(fading[3] > 0 && fading[3] < 255, "{fading:?}");
        assert!(
            fading[0] >= 250,
            "a fringe darkened by the transparent pixels: {fading:?}"
        );
    }

    #[test]
    fn a_copy_is_the_same_on_every_instruction_set_the_cpu_has() {
        use fast_image_resize::{CpuExtensions, Resizer};
        // Noise, with transparency: nothing a shortcut could treat as flat.
        let mut state = 0x9e37_79b9_u32;
        let mut noise = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state.to_le_bytes()
        };
        let rgba = image::RgbaImage::from_fn(1001, 667, |_, _| image::Rgba(noise()));
        let photo = DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(rgba.clone()).to_rgb8());
        let clear = DynamicImage::ImageRgba8(rgba);
        let mut sets = vec![CpuExtensions::None];
        #[cfg(target_arch = "x86_64")]
        sets.extend([CpuExtensions::Sse4_1, CpuExtensions::Avx2]);
        #[cfg(target_arch = "aarch64")]
        sets.push(CpuExtensions::Neon);
        for source in [&photo, &clear] {
            let plain = shrink(source, 320, 213).unwrap();
            let mut compared = 0;
            for set in &sets {
                if !set.is_supported() {
                    continue;
                }
                let mut resizer = Resizer::new();
                // Safe: only a set the CPU has is chosen.
                unsafe { resizer.set_cpu_extensions(*set) };
                let copy = shrink_with(&mut resizer, source, 320, 213).unwrap();
                assert_eq!(copy.as_bytes(), plain.as_bytes(), "{set:?}");
                compared += 1;
            }
            assert!(compared >= 1);
        }
    }

    #[test]
    fn copies_made_while_checked_are_those_the_render_would_make() {
        let drawing = picture(1500, 700, |x, y| {
            let a = if (x / 50 + y / 50) % 2 == 0 { 255 } else { 90 };
            [(x % 256) as u8, (y % 256) as u8, 40, a]
        });
        let photo = DynamicImage::ImageRgb8(drawing.to_rgb8());
        for (source, format, alpha) in [
            (&drawing, Format::Png, true),
            (&photo, Format::Jpeg, false),
            (&drawing, Format::WebP, true),
        ] {
            let mut checked = image("board.png", format, 1500, 700, alpha);
            checked.name = format!("board.{}", format.extensions()[0]);
            let made = copies_while_decoded(source, format);
            let widths: Vec<u32> = made.iter().map(|m| m.width).collect();
            assert_eq!(widths, [DISPLAY, THUMBNAIL]);
            for copy in made {
                let variant = scaled("a/", &checked, copy.width);
                assert_eq!((copy.width, copy.height), (variant.width, variant.height));
                let size = (variant.width, variant.height);
                let rendered = encode(source, size, copy_format(format, alpha)).unwrap();
                assert!(rendered == copy.bytes, "{format:?} at {}", copy.width);
            }
        }
        // A picture no wider than a copy is shown as it is: nothing is made for that width.
        let small = picture(500, 300, |_, _| [1, 2, 3, 255]);
        let widths: Vec<u32> = copies_while_decoded(&small, Format::Png)
            .iter()
            .map(|m| m.width)
            .collect();
        assert_eq!(widths, [THUMBNAIL]);
    }

    #[test]
    fn a_copy_in_another_format_has_a_name_no_catalog_picture_can_have() {
        let webp = image("board.webp", Format::WebP, 2000, 1000, false);
        assert_eq!(
            scaled("a/", &webp, DISPLAY).path,
            "a/images/960/board.webp.jpg"
        );
        let clear = image("board.webp", Format::WebP, 2000, 1000, true);
        assert_eq!(
            scaled("a/", &clear, DISPLAY).path,
            "a/images/960/board.webp.png"
        );
        let jpeg = image("board.jpeg", Format::Jpeg, 2000, 1000, false);
        assert_eq!(scaled("a/", &jpeg, DISPLAY).path, "a/images/960/board.jpeg");
    }
}
