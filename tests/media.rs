//! Pictures beside records: published as they are, with copies scaled for the page and for browse, described by
//! their alt text on the page, scaled once and kept by later builds, and the same bytes from the same catalog.
//! (What `check` says of a picture without alt text, or of a missing, unknown, huge or damaged one, is in the
//! fixtures `W008`, `E045`, `E046` and `E047` of tests/fixtures/invalid, run by tests/check_fixtures.rs.)

mod common;

use std::fs;
use std::path::Path;

use common::{Scratch, copy_tree, ludotheca, parse_html, stderr, stdout};

const BOARD: &str = "boards/board-pataleshwar-2";
const ALT: &str = "A square of 5 by 5 points with its diagonals, cut into dark basalt";

/// A photograph-like test picture: a gradient with a grid, so that scaling has something to average.
fn photo(width: u32, height: u32, shade: u8) -> image::RgbImage {
    image::RgbImage::from_fn(width, height, |x, y| {
        let line = x % 100 < 6 || y % 100 < 6;
        let v = if line {
            30
        } else {
            (80 + (x * 120 / width) as u8).wrapping_add(shade)
        };
        image::Rgb([v, v.saturating_sub(20), v.saturating_sub(40)])
    })
}

/// The valid fixture catalog with two pictures on its board: a 1200 × 900 JPEG, and a 200 × 100 PNG small
/// enough to be shown as it is.
fn catalog_with_pictures(scratch: &Scratch) -> std::path::PathBuf {
    let catalog = scratch.0.join("catalog");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid"),
        &catalog,
    );
    let images = catalog.join(BOARD).join("images");
    fs::create_dir_all(&images).unwrap();
    photo(1200, 900, 0)
        .save_with_format(images.join("photo.jpg"), image::ImageFormat::Jpeg)
        .unwrap();
    photo(200, 100, 40)
        .save_with_format(images.join("detail.png"), image::ImageFormat::Png)
        .unwrap();
    let record = catalog.join(BOARD).join("record.xml");
    let text = fs::read_to_string(&record).unwrap().replace(
        "</record>",
        &format!(
            "  <image file=\"images/photo.jpg\" alt=\"{ALT}\">The board &amp; its step, 2024.</image>\n  \
             <image file=\"images/detail.png\" alt=\"A corner of the board\"/>\n</record>"
        ),
    );
    fs::write(&record, text).unwrap();
    catalog
}

fn build(catalog: &Path, out: &Path) -> String {
    let output = ludotheca(&[
        "build",
        "--catalog",
        catalog.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--timings",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

fn images_line(out: &str) -> &str {
    out.lines()
        .map(str::trim)
        .find(|l| l.starts_with("images "))
        .unwrap_or_else(|| panic!("no images line in:\n{out}"))
}

#[test]
fn pictures_are_published_scaled_and_described() {
    let scratch = Scratch::new("media-publish");
    let catalog = catalog_with_pictures(&scratch);
    let site = scratch.0.join("site");
    let out = build(&catalog, &site);
    // The JPEG needs two copies; the small PNG none.
    assert_eq!(
        images_line(&out),
        "images 1 scaled (1 while checked), 0 kept"
    );

    let dir = site.join(BOARD).join("images");
    assert_eq!(
        fs::read(dir.join("photo.jpg")).unwrap(),
        fs::read(catalog.join(BOARD).join("images/photo.jpg")).unwrap(),
        "the picture is published byte for byte"
    );
    assert_eq!(
        image::image_dimensions(dir.join("960/photo.jpg")).unwrap(),
        (960, 720)
    );
    assert_eq!(
        image::image_dimensions(dir.join("320/photo.jpg")).unwrap(),
        (320, 240)
    );
    assert!(!dir.join("320/detail.png").exists() && dir.join("detail.png").exists());

    let page = fs::read_to_string(site.join(BOARD).join("index.html")).unwrap();
    let (tags, text) = parse_html(&page);
    let img = |src: &str| {
        tags.iter()
            .find(|t| t.name == "img" && t.attr("src") == Some(src))
            .unwrap_or_else(|| panic!("no img of {src} on the page"))
    };
    let shown = img("images/960/photo.jpg");
    assert_eq!(shown.attr("alt"), Some(ALT));
    assert_eq!(
        (shown.attr("width"), shown.attr("height")),
        (Some("960"), Some("720"))
    );
    assert_eq!(shown.attr("loading"), Some("lazy"));
    assert_eq!(
        shown.attr("srcset"),
        Some("images/320/photo.jpg 320w, images/960/photo.jpg 960w")
    );
    let small = img("images/detail.png");
    assert_eq!(small.attr("alt"), Some("A corner of the board"));
    assert_eq!(
        (small.attr("width"), small.attr("height")),
        (Some("200"), Some("100"))
    );
    assert!(
        tags.iter()
            .any(|t| t.name == "a" && t.attr("href") == Some("images/photo.jpg")),
        "the figure links the picture itself"
    );
    assert!(text.contains("The board & its step, 2024."), "{text}");
    assert!(
        page.contains("\"ImageObject\"") && page.contains("\"contentUrl\":\"images/photo.jpg\"")
    );

    let browse = fs::read_to_string(site.join("browse/index.html")).unwrap();
    let (tags, _) = parse_html(&browse);
    let thumbnail = tags
        .iter()
        .find(|t| t.name == "img" && t.attr("class") == Some("thumbnail"))
        .expect("browse shows the board's thumbnail");
    assert_eq!(
        thumbnail.attr("src"),
        Some("../boards/board-pataleshwar-2/images/320/photo.jpg")
    );
    assert_eq!(
        (
            thumbnail.attr("width"),
            thumbnail.attr("height"),
            thumbnail.attr("alt")
        ),
        (Some("320"), Some("240"), Some(""))
    );
}

#[test]
fn a_rebuild_does_not_scale_an_unchanged_picture_again() {
    let scratch = Scratch::new("media-rebuild");
    let catalog = catalog_with_pictures(&scratch);
    let site = scratch.0.join("site");
    assert_eq!(
        images_line(&build(&catalog, &site)),
        "images 1 scaled (1 while checked), 0 kept"
    );
    let thumbnail = site.join(BOARD).join("images/320/photo.jpg");
    let before = fs::read(&thumbnail).unwrap();
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(&thumbnail).unwrap().ino()
    };

    assert_eq!(
        images_line(&build(&catalog, &site)),
        "images 0 scaled (0 while checked), 1 kept"
    );
    // Kept means the previous site's file itself, linked into the new one.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(fs::metadata(&thumbnail).unwrap().ino(), inode);
    }

    // A new picture under the same name is scaled again, and the page shows its new size.
    photo(800, 800, 90)
        .save_with_format(
            catalog.join(BOARD).join("images/photo.jpg"),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    assert_eq!(
        images_line(&build(&catalog, &site)),
        "images 1 scaled (1 while checked), 0 kept"
    );
    assert_ne!(fs::read(&thumbnail).unwrap(), before);
    assert_eq!(image::image_dimensions(&thumbnail).unwrap(), (320, 320));
    // 800 pixels is narrower than the page's copy: the page shows the picture itself.
    assert!(!site.join(BOARD).join("images/960/photo.jpg").exists());
    let page = fs::read_to_string(site.join(BOARD).join("index.html")).unwrap();
    assert!(
        page.contains("src=\"images/photo.jpg\"") && page.contains("width=\"800\" height=\"800\""),
        "{page}"
    );
}

#[test]
fn the_same_catalog_gives_the_same_pictures() {
    let scratch = Scratch::new("media-same");
    let catalog = catalog_with_pictures(&scratch);
    let first = scratch.0.join("first");
    let second = scratch.0.join("second");
    build(&catalog, &first);
    build(&catalog, &second);
    let images = |site: &Path| common::snapshot(&site.join(BOARD).join("images"));
    let a = images(&first);
    assert_eq!(a.len(), 4, "{:?}", a.keys().collect::<Vec<_>>());
    assert!(a == images(&second), "two builds made different pictures");
}

#[test]
fn the_shipped_catalog_shows_its_picture_with_alt_text() {
    let output = ludotheca(&["check", "--catalog", "catalog"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("W008") && !stdout(&output).contains("W008"),
        "every picture of the shipped catalog has alt text"
    );
    let record = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("catalog/boards/kherjarala-rock-board/record.xml"),
    )
    .unwrap();
    assert!(record.contains("<image file=\"images/board-shape.png\" alt=\""));
}

/// The preview server's builds (`site::Kept`, told of each changed path as its watcher is): after a picture
/// is replaced, damaged, fixed and removed, the site and the diagnostics are those of a build without memory.
#[test]
fn the_preview_servers_builds_follow_edits_to_pictures() {
    use ludotheca::site::{self, BuildError, Kept};
    let scratch = Scratch::new("media-kept");
    let catalog = catalog_with_pictures(&scratch);
    let out = scratch.0.join("site");
    let photo_path = catalog.join(BOARD).join("images/photo.jpg");
    let mut kept = Kept::default();
    let said = |outcome: &Result<site::Built, BuildError>| match outcome {
        Ok(built) => format!("{:?}", built.diagnostics),
        Err(BuildError::CatalogErrors(d)) => format!("errors {d:?}"),
        Err(other) => format!("error {other}"),
    };
    let step = |what: &str, kept: &mut Kept| {
        let with_memory = site::build_with(&common::build_options(&catalog, &out), Some(kept));
        let fresh_out = scratch.0.join(format!("fresh-{}", what.replace(' ', "-")));
        let fresh = site::build(&common::build_options(&catalog, &fresh_out));
        assert_eq!(said(&with_memory), said(&fresh), "after {what}");
        if fresh.is_ok() {
            let strip = |s: std::collections::BTreeMap<String, Vec<u8>>| {
                s.into_iter()
                    .filter(|(k, _)| !k.starts_with(".ludotheca"))
                    .collect::<std::collections::BTreeMap<_, _>>()
            };
            assert!(
                strip(common::snapshot(&out)) == strip(common::snapshot(&fresh_out)),
                "after {what}: the site differs from a build without memory"
            );
        }
        with_memory
    };
    step("first build", &mut kept).unwrap();

    photo(1000, 500, 60)
        .save_with_format(&photo_path, image::ImageFormat::Jpeg)
        .unwrap();
    kept.changed(&photo_path);
    let images = step("a new picture", &mut kept).unwrap().images;
    assert_eq!((images.scaled, images.while_checked), (1, 1));

    let good = fs::read(&photo_path).unwrap();
    // Cut inside its headers (a JPEG cut inside its image data decodes, grey below the cut, as browsers show it).
    fs::write(&photo_path, &good[..100]).unwrap();
    kept.changed(&photo_path);
    let damaged = step("a damaged picture", &mut kept);
    assert!(
        matches!(&damaged, Err(BuildError::CatalogErrors(d)) if format!("{d:?}").contains("E047")),
        "{}",
        said(&damaged)
    );

    fs::write(&photo_path, &good).unwrap();
    kept.changed(&photo_path);
    step("the picture fixed", &mut kept).unwrap();

    fs::remove_file(&photo_path).unwrap();
    kept.changed(&photo_path);
    let removed = step("the picture removed", &mut kept);
    assert!(
        matches!(&removed, Err(BuildError::CatalogErrors(d)) if format!("{d:?}").contains("E045")),
        "{}",
        said(&removed)
    );
}

/// A picture is read with the care of every catalog file: a link leading out of the catalog is not followed
/// (E040), a folder in a picture's place is not read (E039), and neither stops the check.
#[cfg(unix)]
#[test]
fn pictures_are_read_with_the_catalogs_care() {
    let scratch = Scratch::new("media-hostile");
    let catalog = catalog_with_pictures(&scratch);
    let images = catalog.join(BOARD).join("images");
    let outside = scratch.0.join("secret.png");
    fs::copy(images.join("detail.png"), &outside).unwrap();
    fs::remove_file(images.join("detail.png")).unwrap();
    std::os::unix::fs::symlink(&outside, images.join("detail.png")).unwrap();
    fs::remove_file(images.join("photo.jpg")).unwrap();
    fs::create_dir(images.join("photo.jpg")).unwrap();
    let output = ludotheca(&["check", "--catalog", catalog.to_str().unwrap()]);
    let report = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains("error[E040]") && report.contains("images/detail.png"),
        "{report}"
    );
    assert!(
        report.contains("error[E039]: image is a folder, not a regular file"),
        "{report}"
    );
    assert!(
        !report.contains("secret"),
        "the link's target is never named"
    );
}

/// A JPEG with an EXIF orientation (a phone's portrait photograph, stored lying on its side): the site's copies
/// and the sizes on the page are of the picture turned upright, as browsers show the file itself.
#[test]
fn a_photographs_orientation_is_applied() {
    let scratch = Scratch::new("media-orientation");
    let catalog = catalog_with_pictures(&scratch);
    let path = catalog.join(BOARD).join("images/photo.jpg");
    let mut stored = Vec::new();
    image::DynamicImage::ImageRgb8(photo(1200, 600, 0))
        .write_to(
            &mut std::io::Cursor::new(&mut stored),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    // An APP1 segment after the start marker: Exif, a big-endian TIFF header and one entry, Orientation
    // (0x0112, a SHORT) = 6, "turn 90 degrees clockwise to view".
    let mut exif =
        b"Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0".to_vec();
    let length = u16::try_from(exif.len() + 2).unwrap().to_be_bytes();
    let mut oriented = vec![0xFF, 0xD8, 0xFF, 0xE1, length[0], length[1]];
    oriented.append(&mut exif);
    oriented.extend_from_slice(&stored[2..]);
    fs::write(&path, &oriented).unwrap();

    let site = scratch.0.join("site");
    build(&catalog, &site);
    let images = site.join(BOARD).join("images");
    assert_eq!(
        image::image_dimensions(images.join("320/photo.jpg")).unwrap(),
        (320, 640)
    );
    // 600 pixels wide upright: the page shows the file itself, at its upright size.
    assert!(!images.join("960/photo.jpg").exists());
    let page = fs::read_to_string(site.join(BOARD).join("index.html")).unwrap();
    assert!(
        page.contains("src=\"images/photo.jpg\"") && page.contains("width=\"600\" height=\"1200\""),
        "{page}"
    );
}

/// Every way the archive is given out as data names the pictures: catalog.json (address, size, type, alt text,
/// caption), catalog.csv (an `images` column), the item's zip (the pictures under `images/`, byte for byte, as
/// in the catalog folder) and the OAI-PMH file (each picture's address as a `dc:relation`, still valid against
/// the schemas); and `export json` gives what the site's catalog.json does.
#[test]
fn every_export_gives_the_pictures() {
    const BASE: &str = "https://archive.example.org/games/";
    let scratch = Scratch::new("media-exports");
    let catalog = catalog_with_pictures(&scratch);
    let site = scratch.0.join("site");
    let output = ludotheca(&[
        "build",
        "--catalog",
        catalog.to_str().unwrap(),
        "--out",
        site.to_str().unwrap(),
        "--base-url",
        BASE,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let photo = format!("{BOARD}/images/photo.jpg");
    let detail = format!("{BOARD}/images/detail.png");
    let board_id = BOARD.rsplit('/').next().unwrap();

    // catalog.json: each picture of the board, in the record's order.
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(site.join("catalog.json")).unwrap()).unwrap();
    let items = json["items"].as_array().unwrap();
    let board = items.iter().find(|i| i["id"] == board_id).unwrap();
    assert_eq!(
        board["images"],
        serde_json::json!([
            { "url": photo, "type": "image/jpeg", "width": 1200, "height": 900, "alt": ALT,
              "caption": "The board & its step, 2024." },
            { "url": detail, "type": "image/png", "width": 200, "height": 100,
              "alt": "A corner of the board", "caption": null },
        ])
    );
    // Each address is a file of the site, the picture as published.
    for address in [&photo, &detail] {
        assert!(site.join(address).is_file(), "{address}");
    }
    assert!(
        items
            .iter()
            .filter(|i| i["id"] != board_id)
            .all(|i| i.get("images").is_none()),
        "only the board has pictures"
    );
    let exported = ludotheca(&["export", "json", "--catalog", catalog.to_str().unwrap()]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let exported: serde_json::Value = serde_json::from_str(&stdout(&exported)).unwrap();
    let same = exported["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == board_id);
    assert_eq!(same.unwrap()["images"], board["images"]);

    // catalog.csv: a column of addresses after the page's.
    let mut csv = csv::Reader::from_path(site.join("catalog.csv")).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header[..4], ["id", "kind", "page", "images"]);
    let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
    let row = rows.iter().find(|r| &r[0] == board_id).unwrap();
    assert_eq!(&row[3], format!("{photo} | {detail}"));
    assert!(
        rows.iter()
            .filter(|r| &r[0] != board_id)
            .all(|r| r[3].is_empty())
    );

    // The zip: the catalog folder, pictures included, byte for byte; offered on the page with them counted.
    let zip_path = site.join(BOARD).join(format!("{board_id}.zip"));
    let mut zip =
        zip::ZipArchive::new(fs::File::open(&zip_path).expect("the board has a zip")).unwrap();
    let mut names: Vec<String> = zip.file_names().map(String::from).collect();
    names.sort();
    assert_eq!(
        names,
        [
            format!("{board_id}/images/detail.png"),
            format!("{board_id}/images/photo.jpg"),
            format!("{board_id}/record.xml"),
        ]
    );
    for name in ["images/photo.jpg", "images/detail.png", "record.xml"] {
        let mut inside = Vec::new();
        let mut file = zip.by_name(&format!("{board_id}/{name}")).unwrap();
        std::io::Read::read_to_end(&mut file, &mut inside).unwrap();
        assert_eq!(
            inside,
            fs::read(catalog.join(BOARD).join(name)).unwrap(),
            "{name} in the zip"
        );
    }
    let page = fs::read_to_string(site.join(BOARD).join("index.html")).unwrap();
    assert!(
        page.contains(&format!("href=\"{board_id}.zip\"")) && page.contains("2 pictures"),
        "the page offers the zip"
    );

    // OAI-PMH: the pictures as relations of the board's record, by their absolute addresses.
    let oai = fs::read_to_string(site.join("oai-pmh.xml")).unwrap();
    let record = oai
        .split("<oai:record>")
        .find(|r| r.contains(&format!(":{board_id}</oai:identifier>")))
        .unwrap();
    for address in [&photo, &detail] {
        assert!(
            record.contains(&format!("<dc:relation>{BASE}{address}</dc:relation>")),
            "{address} in:\n{record}"
        );
    }
    let schemas = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    match std::process::Command::new("xmllint")
        .args(["--noout", "--nonet", "--schema", "driver.xsd"])
        .arg(site.join("oai-pmh.xml"))
        .current_dir(&schemas)
        .output()
    {
        Ok(lint) => assert!(
            lint.status.success(),
            "oai-pmh.xml is not valid:\n{}",
            String::from_utf8_lossy(&lint.stderr)
        ),
        Err(_) if std::env::var_os("LUDOTHECA_REQUIRE_XMLLINT").is_none() => {
            eprintln!("note: xmllint is missing: the OAI-PMH schema check is skipped")
        }
        Err(err) => panic!("xmllint does not run: {err}"),
    }
}
