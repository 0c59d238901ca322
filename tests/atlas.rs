//! The map and the timeline, built end to end: a place whose record gives coordinates has a marker on the map
//! (a link to its page, named in words) and an entry in the list beside it; a DCMI Box is drawn too; a dated
//! item is on the timeline, in order of year; both pages are reached from the navigation and are the same
//! bytes in every build of the same catalog.

use std::fs;
use std::path::Path;

mod common;
use common::{Scratch, copy_tree, parse_html, snapshot};

use ludotheca::site::build;

const CATALOG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog");

fn built(
    catalog: &Path,
    scratch: &Scratch,
    name: &str,
) -> std::collections::BTreeMap<String, Vec<u8>> {
    let out = scratch.0.join(name);
    build(&common::build_options(catalog, &out)).expect("the catalog builds");
    snapshot(&out)
}

fn page(site: &std::collections::BTreeMap<String, Vec<u8>>, path: &str) -> String {
    String::from_utf8(
        site.get(path)
            .unwrap_or_else(|| panic!("{path} is missing"))
            .clone(),
    )
    .unwrap()
}

/// The links inside the map pictures (the markers): href and accessible name.
fn markers(html: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for picture in html.split("<svg").skip(1) {
        let picture = picture.split("</svg>").next().unwrap_or_default();
        let (tags, _) = parse_html(&format!("<svg{picture}"));
        for tag in tags.iter().filter(|t| t.name == "a") {
            found.push((
                tag.attr("href").unwrap_or_default().to_string(),
                tag.attr("aria-label").unwrap_or_default().to_string(),
            ));
        }
    }
    found
}

/// A place as the map page's table gives it: name, slug, number of items.
type Listed = (String, String, u64);

/// The markers that stand for several places, with the places the page's table gives for each: the marker's
/// name, then its places. Panics on an index the table has no place at.
fn clusters(html: &str) -> Vec<(String, Vec<Listed>)> {
    let start = html
        .find("<script type=\"application/json\" id=\"atlas-places\"")
        .expect("the page's table of places");
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let table: serde_json::Value = serde_json::from_str(json).unwrap();
    let mut found = Vec::new();
    for picture in html.split("<svg").skip(1) {
        let picture = picture.split("</svg>").next().unwrap_or_default();
        let (tags, _) = parse_html(&format!("<svg{picture}"));
        for tag in tags.iter().filter(|t| t.name == "a") {
            let Some(places) = tag.attr("data-places") else {
                continue;
            };
            let places = places
                .split(' ')
                .map(|i| {
                    let place = &table[i.parse::<usize>().unwrap()];
                    assert!(place.is_array(), "no place {i} in the table");
                    (
                        place[0].as_str().unwrap().to_string(),
                        place[1].as_str().unwrap().to_string(),
                        place[2].as_u64().unwrap(),
                    )
                })
                .collect();
            found.push((tag.attr("aria-label").unwrap().to_string(), places));
        }
    }
    found
}

#[test]
fn places_with_coordinates_are_on_the_map_and_dated_items_on_the_timeline() {
    let scratch = Scratch::new("atlas-shipped");
    let site = built(Path::new(CATALOG), &scratch, "site");

    let map = page(&site, "map/index.html");
    let marks = markers(&map);
    assert!(
        marks.contains(&(
            "../places/kathmandu-valley/index.html".to_string(),
            "Kathmandu Valley: 1 item".to_string()
        )),
        "{marks:?}"
    );
    // Kohima and Zunheboto are too close to draw apart: one marker, leading to them in the list.
    assert!(
        marks
            .iter()
            .any(|(href, label)| href == "#place-kohima-nagaland"
                && label.contains("Kohima, Nagaland")
                && label.contains("Zunheboto, Nagaland"))
    );
    // The marker lists both (the page's script shows them), in each of the two maps.
    let shared = clusters(&map);
    assert_eq!(shared.len(), 2, "{shared:?}");
    for (_, places) in &shared {
        assert_eq!(
            places,
            &[
                ("Kohima, Nagaland".into(), "kohima-nagaland".into(), 1),
                ("Zunheboto, Nagaland".into(), "zunheboto-nagaland".into(), 2)
            ]
        );
    }
    assert!(map.contains("data-href=\"../places/*/index.html\""));
    assert!(map.contains("<script src=\"../static/atlas.js\"></script>"));
    assert!(map.contains("<li id=\"place-kathmandu-valley\" data-row"));
    assert!(map.contains("<a href=\"../places/kathmandu-valley/index.html\">Kathmandu Valley</a>"));
    // A place without coordinates is not drawn.
    assert!(!map.contains("places/nepal/index.html"));
    // The fitted view and the world.
    assert_eq!(map.matches("<svg class=\"atlas-map\"").count(), 2);

    let timeline = page(&site, "timeline/index.html");
    let tchouba = timeline
        .find("../games/tchouba/index.html")
        .expect("Tchouba (1898/2010) is on the timeline");
    let terhuchu = timeline
        .find("../games/terhuchu/index.html")
        .expect("Terhuchu (1921) is on the timeline");
    assert!(tchouba < terhuchu, "in order of year");
    assert!(timeline.contains("<span class=\"timeline-year\">1898–2010</span>"));
    // The board's date is free text ("Undated"): not placed.
    assert!(!timeline.contains("kherjarala-rock-board"));

    // The navigation and the place pages lead to them.
    let home = page(&site, "index.html");
    assert!(
        home.contains("href=\"map/index.html\"") && home.contains("href=\"timeline/index.html\"")
    );
    assert!(
        page(&site, "places/kathmandu-valley/index.html")
            .contains("href=\"../../map/index.html#place-kathmandu-valley\"")
    );

    // The same catalog, the same bytes.
    let again = built(Path::new(CATALOG), &scratch, "again");
    for path in ["map/index.html", "timeline/index.html"] {
        assert!(
            site[path] == again[path],
            "{path} differs between two builds"
        );
    }
}

#[test]
fn a_box_is_drawn_and_approximate_dates_are_placed() {
    let scratch = Scratch::new("atlas-box");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("boards/kherjarala-rock-board/record.xml");
    let text = fs::read_to_string(&record).unwrap().replace(
        "<dcterms:date>Undated</dcterms:date>",
        "<dcterms:date>Undated</dcterms:date>\n  <dcterms:created xsi:type=\"dcterms:EDTF\">17XX~</dcterms:created>\n  \
         <dcterms:spatial xsi:type=\"dcterms:Box\">northlimit=27.5; eastlimit=74.5; southlimit=26.5; westlimit=73.5; name=Around Kherjarala</dcterms:spatial>\n  \
         <dcterms:spatial xsi:type=\"dcterms:Box\">northlimit=-12; eastlimit=-178; southlimit=-21; westlimit=177; name=Fiji</dcterms:spatial>",
    );
    fs::write(&record, text).unwrap();
    let site = built(&catalog, &scratch, "site");

    let map = page(&site, "map/index.html");
    assert!(
        markers(&map)
            .iter()
            .any(|(href, _)| href == "../places/around-kherjarala/index.html")
    );
    assert!(map.contains("<g class=\"areas\" aria-hidden=\"true\"><rect "));
    assert!(map.contains("26.5° N, 73.5° E to 27.5° N, 74.5° E"));
    // A box across the date line: in the list with its limits as given; on the world map framed in two
    // stretches, at the right edge (177 E to 180) and the left (180 to 178 W), not across the world.
    assert!(map.contains("21° S, 177° E to 12° S, 178° W"), "{map}");
    let world = map.split("id=\"map-world\"").nth(1).expect("the world map");
    let areas = world.split("<g class=\"areas\"").nth(1).unwrap();
    let areas = areas.split("</g>").next().unwrap();
    let widths: Vec<f64> = areas
        .split(" width=\"")
        .skip(1)
        .map(|w| w.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(widths.len(), 3, "{areas}");
    assert!(widths.iter().all(|&w| w < 20.0), "{widths:?}");
    assert!(areas.contains("<rect x=\"0\" "), "{areas}");

    let timeline = page(&site, "timeline/index.html");
    let board = timeline
        .find("kherjarala-rock-board")
        .expect("the board, created in the 1700s, is on the timeline");
    assert!(
        board < timeline.find("../games/tchouba/index.html").unwrap(),
        "the 1700s come first"
    );
    assert!(timeline.contains("<span class=\"timeline-year\">1700–1799</span>"));
    assert!(timeline.contains("timeline-bar approximate"));
}

/// Many distinct places: the map's list is paged, so the map page stays within a bound whatever the number of
/// places (its pictures hold at most one marker a cell; its list one page), and a marker for several places
/// leads to the first one's entry on whichever page of the list holds it.
#[test]
fn the_map_page_stays_bounded_with_many_places() {
    let scratch = Scratch::new("atlas-many");
    let catalog = scratch.0.join("catalog");
    copy_tree(Path::new(CATALOG), &catalog);
    let record = catalog.join("boards/kherjarala-rock-board/record.xml");
    // 4,000 places on a grid over South Asia, a tenth of a degree apart in places: many share a marker.
    let mut spatial = String::new();
    for i in 0..4000 {
        let east = 70.0 + f64::from(i % 80) * 0.3;
        let north = 8.0 + f64::from(i / 80) * 0.5 + f64::from(i % 3) * 0.1;
        spatial.push_str(&format!(
            "\n  <dcterms:spatial xsi:type=\"dcterms:Point\">east={east:.2}; north={north:.2}; name=Spot {i}</dcterms:spatial>"
        ));
    }
    let text = fs::read_to_string(&record).unwrap().replace(
        "<dcterms:date>Undated</dcterms:date>",
        &format!("<dcterms:date>Undated</dcterms:date>{spatial}"),
    );
    fs::write(&record, text).unwrap();
    let site = built(&catalog, &scratch, "site");

    let map = page(&site, "map/index.html");
    // The list beside the map: one page of 200 (of the 4,000 and the shipped places), then the pager.
    let entries = map.matches(" data-row>").count() + map.matches(" data-row ").count();
    assert!(entries <= 200, "{entries} places listed on the map page");
    assert!(map.contains("class=\"pager\""));
    let pages = site
        .keys()
        .filter(|p| p.starts_with("map/page/") && p.ends_with("/index.html"))
        .count();
    assert!(pages >= 20, "{pages} more pages of the list");
    // Before paging, the list alone named every place: 4,000 entries of some 200 bytes.
    assert!(map.len() < 700_000, "the map page is {} bytes", map.len());
    // Marker names stay short: a few names, then how many more.
    let marks = markers(&map);
    assert!(marks.iter().any(|(_, label)| label.contains(" more")));
    assert!(
        marks.iter().all(|(_, label)| label.len() < 400),
        "a marker's name is long"
    );
    // Every marker for several places lists them all, each found in the page's table, the first of them
    // those its name gives.
    let shared = clusters(&map);
    assert!(shared.len() > 100, "{} shared markers", shared.len());
    for (label, places) in &shared {
        let count: usize = label.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(places.len(), count, "{label}");
        let named = label.split_once(": ").unwrap().1;
        for (name, ..) in places.iter().take(8) {
            assert!(named.contains(name.as_str()), "{name} in {label}");
        }
    }
    assert!(shared.iter().any(|(_, places)| places.len() > 8));
    // A marker for several places whose first is on a later page of the list leads there.
    let later = marks
        .iter()
        .find(|(href, _)| href.starts_with("../map/page/"))
        .expect("a marker leading to a later page of the list");
    let (file, anchor) = later.0.trim_start_matches("../").split_once('#').unwrap();
    assert!(
        page(&site, file).contains(&format!("<li id=\"{anchor}\" data-row")),
        "{} has {anchor}",
        file
    );
    // A place's page links to its entry, on its page of the list.
    let spot = page(&site, "places/spot-3999/index.html");
    assert!(
        spot.contains("map/page/"),
        "the last place's entry is on a later page"
    );
}
