//! The map: the archive's places drawn as SVG at build time over Natural Earth's country outlines
//! (`outlines/`), in an equirectangular projection whose standard parallel is the middle of the view, fitted to
//! the places. No tiles and no script: the picture is part of the page.
//!
//! Places close enough to overlap on the picture are drawn as one marker (a grid of cells a few pixels wide),
//! so the picture holds at most one marker per cell whatever the number of places; the text list beside the map
//! names every place.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::report::counted;
use crate::site::theme::escape_html;

/// The picture's width in its own units; the height follows from the view.
pub const WIDTH: f64 = 960.0;
/// Places whose markers fall in the same square of this size are drawn as one marker.
const CELL: f64 = 14.0;
/// A marker for several places names this many of them, then says how many more.
const NAMED: usize = 8;

/// A DCMI Box's limits: west, east, south, north.
pub type Limits = (f64, f64, f64, f64);

/// A place to mark.
pub struct Place {
    pub name: String,
    /// The name of its page's folder (`places/<slug>/index.html`).
    pub slug: String,
    pub east: f64,
    pub north: f64,
    /// A DCMI Box's limits, drawn as a frame around the marker.
    pub area: Option<Limits>,
    /// The place's page, relative to the map's page.
    pub href: String,
    /// The place's entry in the list of places (`#place-x`, or on a later page of the list), for a marker that
    /// stands for several places.
    pub anchor: String,
    pub items: usize,
    /// Facet values for the filters, as data attributes (`kind`, `|game|board|`).
    pub facets: Vec<(&'static str, Vec<String>)>,
}

impl Place {
    /// The points the view must hold for this place: where it is marked, and a box's corners. A box across the
    /// date line gives only the corners of its part on the side of its middle, since a view never crosses the
    /// line: holding both parts would take the whole width of the world.
    pub fn corners(&self) -> Vec<(f64, f64)> {
        let mut points = vec![(self.east, self.north)];
        if let Some((w, e, s, n)) = self.area {
            let (w, e) = match pieces(w, e) {
                [Some(one), None] => one,
                [Some(west), Some(east)] => {
                    if self.east >= 0.0 {
                        west
                    } else {
                        east
                    }
                }
                _ => (w, e),
            };
            points.extend([(w, s), (e, n)]);
        }
        points
    }
}

/// A box's extent east to west as the map draws it: one stretch, or two for a box across the date line (from
/// its west limit to 180 and from -180 to its east limit), since the map is cut at the line.
fn pieces(west: f64, east: f64) -> [Option<(f64, f64)>; 2] {
    if west <= east {
        [Some((west, east)), None]
    } else {
        [Some((west, 180.0)), Some((-180.0, east))]
    }
}

/// The part of the world a map shows, in degrees, and the scale of its projection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub west: f64,
    pub east: f64,
    pub south: f64,
    pub north: f64,
}

impl View {
    pub const WORLD: View = View {
        west: -180.0,
        east: 180.0,
        south: -60.0,
        north: 84.0,
    };

    /// The view around `points` (east, north), with a margin, neither too narrow to show where the places are
    /// nor far from the shape of a page; the world when there are none.
    pub fn fit(points: &[(f64, f64)]) -> View {
        if points.is_empty() {
            return View::WORLD;
        }
        let (mut west, mut east, mut south, mut north) = (180.0f64, -180.0f64, 90.0f64, -90.0f64);
        for &(e, n) in points {
            west = west.min(e);
            east = east.max(e);
            south = south.min(n);
            north = north.max(n);
        }
        let pad_x = ((east - west) * 0.15).max(4.0);
        let pad_y = ((north - south) * 0.15).max(4.0);
        let (mut cx, mut cy) = ((west + east) / 2.0, (south + north) / 2.0);
        let mut width = (east - west + 2.0 * pad_x).max(24.0);
        let mut height = (north - south + 2.0 * pad_y).max(16.0);
        // Keep the picture between a wide strip and a square, measured as it will be drawn.
        let k = cy.to_radians().cos().max(0.2);
        let ratio = height / (width * k);
        if ratio > 0.8 {
            width = height / (0.8 * k);
        } else if ratio < 0.45 {
            height = 0.45 * width * k;
        }
        let world = View::WORLD;
        if width >= world.east - world.west || height >= world.north - world.south {
            return world;
        }
        cx = cx.clamp(world.west + width / 2.0, world.east - width / 2.0);
        cy = cy.clamp(world.south + height / 2.0, world.north - height / 2.0);
        View {
            west: cx - width / 2.0,
            east: cx + width / 2.0,
            south: cy - height / 2.0,
            north: cy + height / 2.0,
        }
    }

    /// East-west degrees are shortened by the cosine of the middle latitude, so shapes near it keep their form.
    fn scale(&self) -> (f64, f64) {
        let k = ((self.south + self.north) / 2.0).to_radians().cos();
        let x = WIDTH / (self.east - self.west);
        (x, x / k)
    }

    pub fn height(&self) -> f64 {
        let (_, y) = self.scale();
        ((self.north - self.south) * y).round()
    }

    pub fn project(&self, east: f64, north: f64) -> (f64, f64) {
        let (sx, sy) = self.scale();
        ((east - self.west) * sx, (self.north - north) * sy)
    }
}

/// One ring of a country's outline: its name, and its points (east, north) in tenths of a degree.
type Ring = (String, Vec<(i16, i16)>);

/// The outlines, read once.
fn outlines() -> &'static [Ring] {
    static OUTLINES: OnceLock<Vec<Ring>> = OnceLock::new();
    OUTLINES.get_or_init(|| {
        include_str!("outlines/countries-110m.txt")
            .lines()
            .filter_map(|line| {
                let (name, points) = line.split_once('\t')?;
                let numbers: Vec<i16> = points.split(' ').filter_map(|n| n.parse().ok()).collect();
                let ring = numbers.chunks_exact(2).map(|p| (p[0], p[1])).collect();
                Some((name.to_string(), ring))
            })
            .collect()
    })
}

/// A number of the picture, to a tenth of a unit, without a trailing `.0`.
fn num(out: &mut String, value: f64) {
    let tenths = (value * 10.0).round() as i64;
    if tenths % 10 == 0 {
        let _ = write!(out, "{}", tenths / 10);
    } else {
        let _ = write!(out, "{}.{}", tenths / 10, (tenths % 10).abs());
        if tenths < 0 && tenths > -10 {
            // `-0.5` would print as `0.5`.
            out.insert(out.len() - 3, '-');
        }
    }
}

/// The countries within the view, one path each (holes by the even-odd rule).
fn land(view: &View) -> String {
    let mut paths: BTreeMap<&str, String> = BTreeMap::new();
    let margin = 2.0;
    for (name, ring) in outlines() {
        let inside = ring.iter().any(|&(e, n)| {
            let (e, n) = (f64::from(e) / 10.0, f64::from(n) / 10.0);
            e >= view.west - margin
                && e <= view.east + margin
                && n >= view.south - margin
                && n <= view.north + margin
        });
        if !inside {
            continue;
        }
        let d = paths.entry(name).or_default();
        let mut last = None;
        for (i, &(e, n)) in ring.iter().enumerate() {
            let (x, y) = view.project(f64::from(e) / 10.0, f64::from(n) / 10.0);
            let at = ((x * 10.0).round() as i64, (y * 10.0).round() as i64);
            if last == Some(at) {
                continue;
            }
            last = Some(at);
            d.push(if i == 0 { 'M' } else { ' ' });
            num(d, x);
            d.push(' ');
            num(d, y);
        }
        d.push('Z');
    }
    let mut out = String::new();
    for d in paths.values() {
        let _ = write!(out, "<path d=\"{d}\"/>");
    }
    out
}

/// Facet values as one data attribute: `|a|b|` (bars inside values become slashes), as browse writes them.
fn attr(values: &[String]) -> String {
    let cleaned: Vec<String> = values.iter().map(|v| v.replace('|', "/")).collect();
    format!("|{}|", cleaned.join("|"))
}

/// The outlines within `view` as a picture of their own (an SVG file beside the page), so that the page holds
/// only what the catalog adds: its size then grows with the places, not with the world's coastlines. The
/// picture takes its colours from the reader's light or dark setting, as the page does.
pub fn outlines_svg(view: &View) -> String {
    let height = view.height();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" \
         height=\"{height}\"><style>.sea{{fill:#f2ede3}}path{{fill:#d8cfbf;stroke:#fbf8f2;stroke-width:.5;\
         fill-rule:evenodd}}@media (prefers-color-scheme:dark){{.sea{{fill:#23201b}}path{{fill:#3d372e;\
         stroke:#181613}}}}</style><rect class=\"sea\" width=\"{WIDTH}\" height=\"{height}\"/>{}</svg>\n",
        land(view)
    )
}

/// The places within `view`, grouped by the cell of the picture their marker falls in: each group is drawn as
/// one marker. By index in `places`, in the order of `places` within a group.
pub fn cells(view: &View, places: &[Place]) -> BTreeMap<(i64, i64), Vec<usize>> {
    let height = view.height();
    let mut cells: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    for (i, p) in places.iter().enumerate() {
        let (x, y) = view.project(p.east, p.north);
        if !(0.0..=WIDTH).contains(&x) || !(0.0..=height).contains(&y) {
            continue;
        }
        cells
            .entry(((x / CELL).floor() as i64, (y / CELL).floor() as i64))
            .or_default()
            .push(i);
    }
    cells
}

/// The map as an SVG element: the outlines (the picture at `outlines_href`), then one marker per cell of
/// places, each a link named in words (place and number of items) for screen readers and keyboard users. A
/// marker for several places also lists them all by index in `places` (`data-places`), for the page's script
/// to show them in a list; without the script it leads to the first one's entry in the list of places.
pub fn svg(view: &View, places: &[Place], id: &str, title: &str, outlines_href: &str) -> String {
    let height = view.height();
    let cells = cells(view, places);
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg class=\"atlas-map\" id=\"{id}\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" \
         height=\"{height}\" aria-labelledby=\"{id}-title\"><title id=\"{id}-title\">{}</title>\
         <g aria-hidden=\"true\"><image href=\"{}\" width=\"{WIDTH}\" height=\"{height}\"/></g>",
        escape_html(title),
        escape_html(outlines_href)
    );
    out.push_str("<g class=\"areas\" aria-hidden=\"true\">");
    for p in places {
        let Some((w, e, s, n)) = p.area else {
            continue;
        };
        // Each stretch cut to the view, so that a frame never runs off the picture, and a stretch out of
        // the view is not written at all.
        for (w, e) in pieces(w, e).into_iter().flatten() {
            let (w, e) = (w.max(view.west), e.min(view.east));
            let (s, n) = (s.max(view.south), n.min(view.north));
            if w > e || s > n {
                continue;
            }
            let (x0, y0) = view.project(w, n);
            let (x1, y1) = view.project(e, s);
            out.push_str("<rect x=\"");
            num(&mut out, x0);
            out.push_str("\" y=\"");
            num(&mut out, y0);
            out.push_str("\" width=\"");
            num(&mut out, x1 - x0);
            out.push_str("\" height=\"");
            num(&mut out, y1 - y0);
            out.push_str("\"/>");
        }
    }
    out.push_str("</g><g class=\"marks\">");
    for members in cells.values() {
        let (mut x, mut y) = (0.0, 0.0);
        for &i in members {
            let (px, py) = view.project(places[i].east, places[i].north);
            x += px;
            y += py;
        }
        let count = members.len() as f64;
        let (x, y) = (x / count, y / count);
        // Every facet value of every place the marker stands for, so that a filter hides it only when none of
        // them has the value.
        let mut facets: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for &i in members {
            for (key, values) in &places[i].facets {
                facets
                    .entry(key)
                    .or_default()
                    .extend(values.iter().cloned());
            }
        }
        let items: usize = members.iter().map(|&i| places[i].items).sum();
        let first = &places[members[0]];
        let (href, label) = if members.len() == 1 {
            (
                first.href.clone(),
                format!("{}: {}", first.name, counted(items, "item", "items")),
            )
        } else {
            // The first few names, so that a marker's name stays short however many places it stands for.
            let mut names: Vec<&str> = members
                .iter()
                .take(NAMED)
                .map(|&i| places[i].name.as_str())
                .collect();
            let more = members.len().saturating_sub(NAMED);
            let more = format!("and {more} more");
            if members.len() > NAMED {
                names.push(&more);
            }
            (
                first.anchor.clone(),
                format!(
                    "{} close together, {}: {}",
                    counted(members.len(), "place", "places"),
                    counted(items, "item", "items"),
                    names.join("; ")
                ),
            )
        };
        let _ = write!(
            out,
            "<a href=\"{}\" aria-label=\"{}\" data-row=\"mark\"",
            escape_html(&href),
            escape_html(&label)
        );
        if members.len() > 1 {
            out.push_str(" data-places=\"");
            for (n, i) in members.iter().enumerate() {
                if n > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{i}");
            }
            out.push('"');
        }
        for (key, values) in &mut facets {
            values.sort();
            values.dedup();
            if !values.is_empty() {
                let _ = write!(out, " data-f-{key}=\"{}\"", escape_html(&attr(values)));
            }
        }
        out.push_str("><title>");
        out.push_str(&escape_html(&label));
        out.push_str("</title>");
        let radius = if members.len() == 1 { 5.0 } else { 8.0 };
        out.push_str("<circle cx=\"");
        num(&mut out, x);
        out.push_str("\" cy=\"");
        num(&mut out, y);
        let _ = write!(out, "\" r=\"{radius}\"/>");
        if members.len() > 1 {
            // The number of places, so that a cluster does not read as one place by colour or size alone.
            out.push_str("<text x=\"");
            num(&mut out, x);
            out.push_str("\" y=\"");
            num(&mut out, y + 3.5);
            let _ = write!(out, "\" aria-hidden=\"true\">{}</text>", members.len());
        }
        out.push_str("</a>");
    }
    out.push_str("</g></svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(name: &str, east: f64, north: f64) -> Place {
        Place {
            name: name.into(),
            slug: name.into(),
            east,
            north,
            area: None,
            href: format!("../places/{name}/index.html"),
            anchor: format!("#place-{name}"),
            items: 1,
            facets: vec![("kind", vec!["game".into()])],
        }
    }

    #[test]
    fn the_view_holds_every_place() {
        let points = [(94.11, 25.67), (35.38, -23.87), (85.32, 27.72)];
        let view = View::fit(&points);
        for (e, n) in points {
            let (x, y) = view.project(e, n);
            assert!(
                x > 0.0 && x < WIDTH && y > 0.0 && y < view.height(),
                "{e} {n}"
            );
        }
        assert!(view.east - view.west < 360.0);
        assert_eq!(View::fit(&[]), View::WORLD);
        // One place: a region around it, not a point.
        let one = View::fit(&[(179.0, 80.0)]);
        assert!(one.east <= 180.0 && one.north <= View::WORLD.north && one.east - one.west >= 24.0);
    }

    /// The `<rect>`s of a map's frames: x, y, width, height.
    fn frames(svg: &str) -> Vec<[f64; 4]> {
        let areas = svg.split("<g class=\"areas\"").nth(1).unwrap();
        let areas = areas.split("</g>").next().unwrap();
        areas
            .split("<rect ")
            .skip(1)
            .map(|r| {
                let get = |key: &str| -> f64 {
                    let at = r.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
                    r[at..].split('"').next().unwrap().parse().unwrap()
                };
                [get("x"), get("y"), get("width"), get("height")]
            })
            .collect()
    }

    #[test]
    fn a_box_across_the_date_line_is_framed_on_both_sides_of_it() {
        // Fiji: from 177 E eastward across the line to 178 W, 5 degrees wide.
        let mut fiji = place("fiji", 179.5, -16.5);
        fiji.area = Some((177.0, -178.0, -21.0, -12.0));
        let world = svg(
            &View::WORLD,
            std::slice::from_ref(&fiji),
            "m",
            "Map",
            "w.svg",
        );
        let drawn = frames(&world);
        assert_eq!(drawn.len(), 2, "{world}");
        let degree = WIDTH / 360.0;
        // One stretch at the right edge (177 to 180), one at the left (-180 to -178); neither across the world.
        assert!(
            (drawn[0][0] - 357.0 * degree).abs() < 0.1 && (drawn[0][2] - 3.0 * degree).abs() < 0.1
        );
        assert!(drawn[1][0].abs() < 0.1 && (drawn[1][2] - 2.0 * degree).abs() < 0.1);
        // The view fitted to it is a region of the Pacific, not the whole world, and holds the marker and
        // the western stretch; the eastern one, past the line, is left out rather than drawn off the picture.
        let view = View::fit(&fiji.corners());
        assert!(
            view != View::WORLD && view.east - view.west < 60.0,
            "{view:?}"
        );
        let (x, y) = view.project(fiji.east, fiji.north);
        assert!(x > 0.0 && x < WIDTH && y > 0.0 && y < view.height());
        let fitted = frames(&svg(
            &view,
            std::slice::from_ref(&fiji),
            "m",
            "Map",
            "l.svg",
        ));
        assert_eq!(fitted.len(), 1);
        assert!(fitted[0][0] > 0.0 && fitted[0][0] + fitted[0][2] <= WIDTH + 0.1);
        // A box on the other side's middle keeps the other stretch in view.
        let mut samoa = place("samoa", -172.0, -13.5);
        samoa.area = Some((178.0, -168.0, -15.0, -12.0));
        let corners = samoa.corners();
        assert!(corners.iter().all(|&(e, _)| e < 0.0), "{corners:?}");
        // A box that does not cross the line is one frame, as before.
        let mut india = place("india", 92.5, 26.0);
        india.area = Some((88.0, 97.0, 24.0, 28.0));
        assert_eq!(
            frames(&svg(&View::WORLD, &[india], "m", "Map", "w.svg")).len(),
            1
        );
    }

    #[test]
    fn numbers_are_short_and_signed() {
        let mut s = String::new();
        for v in [1.0, 2.25, -0.5, -12.34, 0.04] {
            num(&mut s, v);
            s.push(',');
        }
        assert_eq!(s, "1,2.3,-0.5,-12.3,0,");
    }

    #[test]
    fn close_places_share_a_marker_and_far_ones_do_not() {
        let places = [
            place("a", 94.11, 25.67),
            place("b", 94.12, 25.68),
            place("c", 35.38, -23.87),
        ];
        let view = View::fit(&[(94.11, 25.67), (35.38, -23.87)]);
        let svg = svg(&view, &places, "m", "Map", "land.svg");
        assert!(svg.contains("<image href=\"land.svg\""));
        assert!(outlines_svg(&view).contains(&land(&view)));
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        assert!(svg.contains("aria-label=\"2 places close together, 2 items: a; b\""));
        assert!(svg.contains("href=\"#place-a\""));
        // Every place of the shared marker, by index, for the page's list of them; none on a lone place's.
        assert!(svg.contains(" data-places=\"0 1\""), "{svg}");
        assert_eq!(svg.matches("data-places").count(), 1);
        assert!(svg.contains("href=\"../places/c/index.html\" aria-label=\"c: 1 item\""));
        assert!(svg.contains("data-f-kind=\"|game|\""));
        // Africa and Asia are drawn, the Americas are not.
        assert!(land(&view).len() > 1000);
        assert!(land(&View::fit(&[(-100.0, 40.0)])) != land(&view));
    }

    #[test]
    fn ten_thousand_places_make_at_most_one_marker_a_cell() {
        let places: Vec<Place> = (0..10_000)
            .map(|i| {
                let east = f64::from(i % 360) - 179.5;
                let north = f64::from((i * 7) % 140) - 69.5;
                place(&format!("p{i}"), east, north)
            })
            .collect();
        let view = View::WORLD;
        let svg = svg(&view, &places, "m", "Map", "world.svg");
        let cells = (WIDTH / CELL).ceil() * (view.height() / CELL).ceil();
        let markers = svg.matches("<circle").count();
        assert!(
            markers as f64 <= cells && markers < 3_000,
            "{markers} markers"
        );
        assert!(svg.len() < 1_000_000, "{} bytes", svg.len());
    }

    #[test]
    fn outlines_are_read() {
        let all = outlines();
        assert!(all.len() > 200);
        assert!(all.iter().any(|(name, _)| name == "India"));
        assert!(all.iter().all(|(_, ring)| ring.len() >= 4));
    }
}
