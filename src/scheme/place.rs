//! Places: DCMI Point (`east=..; north=..`) and DCMI Box (`northlimit=..; eastlimit=..; southlimit=..;
//! westlimit=..`), in decimal degrees.

#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub east: f64,
    pub north: f64,
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GeoBox {
    pub north: f64,
    pub east: f64,
    pub south: f64,
    pub west: f64,
    pub name: Option<String>,
}

impl GeoBox {
    /// Whether the box crosses the 180th meridian: DCMI Box has no other way to say so than a west limit east
    /// of the east limit (Fiji is `westlimit=177; eastlimit=-178`).
    pub fn crosses_date_line(&self) -> bool {
        self.west > self.east
    }

    /// Degrees of longitude from the west limit eastward to the east limit: 5 for Fiji, not 355.
    pub fn width(&self) -> f64 {
        if self.crosses_date_line() {
            self.east + 360.0 - self.west
        } else {
            self.east - self.west
        }
    }

    /// The middle of the box (east, north), east between -180 and 180: half its width east of its west limit.
    pub fn centre(&self) -> (f64, f64) {
        let mut east = self.west + self.width() / 2.0;
        if east > 180.0 {
            east -= 360.0;
        }
        (east, (self.south + self.north) / 2.0)
    }
}

/// A plain decimal number: optional sign, digits, optional fraction. No exponents, `inf` or `NaN`.
fn number(key: &str, value: &str) -> Result<f64, String> {
    let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) {
        return Err(format!("`{key}={value}` is not a decimal number"));
    }
    value
        .parse()
        .map_err(|_| format!("`{key}={value}` is not a decimal number"))
}

fn in_range(key: &str, value: f64, limit: f64) -> Result<f64, String> {
    if value.abs() > limit {
        Err(format!("`{key}` is {value}, outside -{limit}..{limit}"))
    } else {
        Ok(value)
    }
}

fn required<'a>(parts: &[(&'a str, &'a str)], key: &str) -> Result<&'a str, String> {
    parts
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("`{key}` is missing"))
}

fn optional_numbers(parts: &[(&str, &str)], keys: &[&str]) -> Result<(), String> {
    for (k, v) in parts {
        if keys.contains(k) {
            number(k, v)?;
        }
    }
    Ok(())
}

pub fn parse_point(text: &str) -> Result<Point, String> {
    let parts = super::components(
        text,
        &[
            "east",
            "north",
            "elevation",
            "name",
            "units",
            "zunits",
            "projection",
        ],
    )?;
    let east = in_range("east", number("east", required(&parts, "east")?)?, 180.0)?;
    let north = in_range("north", number("north", required(&parts, "north")?)?, 90.0)?;
    optional_numbers(&parts, &["elevation"])?;
    Ok(Point {
        east,
        north,
        name: parts
            .iter()
            .find(|(k, _)| *k == "name")
            .map(|(_, v)| v.to_string()),
    })
}

pub fn parse_box(text: &str) -> Result<GeoBox, String> {
    let parts = super::components(
        text,
        &[
            "northlimit",
            "eastlimit",
            "southlimit",
            "westlimit",
            "uplimit",
            "downlimit",
            "name",
            "units",
            "zunits",
            "projection",
        ],
    )?;
    let get = |key: &str, limit: f64| -> Result<f64, String> {
        in_range(key, number(key, required(&parts, key)?)?, limit)
    };
    let geo = GeoBox {
        north: get("northlimit", 90.0)?,
        east: get("eastlimit", 180.0)?,
        south: get("southlimit", 90.0)?,
        west: get("westlimit", 180.0)?,
        name: parts
            .iter()
            .find(|(k, _)| *k == "name")
            .map(|(_, v)| v.to_string()),
    };
    optional_numbers(&parts, &["uplimit", "downlimit"])?;
    if geo.south > geo.north {
        return Err(format!(
            "`southlimit` ({}) is north of `northlimit` ({})",
            geo.south, geo.north
        ));
    }
    Ok(geo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_across_the_date_line_has_its_middle_in_the_pacific() {
        let fiji =
            parse_box("northlimit=-12; eastlimit=-178; southlimit=-21; westlimit=177; name=Fiji")
                .unwrap();
        assert!(fiji.crosses_date_line());
        assert_eq!(fiji.width(), 5.0);
        assert_eq!(fiji.centre(), (179.5, -16.5));
        // Wider on the far side of the line: the middle wraps to the western hemisphere.
        let pacific =
            parse_box("northlimit=10; eastlimit=-150; southlimit=-10; westlimit=170").unwrap();
        assert_eq!((pacific.width(), pacific.centre()), (40.0, (-170.0, 0.0)));
        let india = parse_box("northlimit=28; eastlimit=97; southlimit=24; westlimit=88").unwrap();
        assert!(!india.crosses_date_line());
        assert_eq!((india.width(), india.centre()), (9.0, (92.5, 26.0)));
    }

    #[test]
    fn points() {
        let p = parse_point("east=94.11; north=25.67; name=Kohima").unwrap();
        assert_eq!(
            (p.east, p.north, p.name.as_deref()),
            (94.11, 25.67, Some("Kohima"))
        );
        assert!(parse_point("east=-73.5; north=-12").is_ok());
        assert!(parse_point("east=194.1; north=25.7").is_err());
        assert!(parse_point("east=94.1; north=95").is_err());
        assert!(parse_point("east=94.1").is_err());
        assert!(parse_point("east=94,1; north=25").is_err());
        assert!(parse_point("east=inf; north=25").is_err());
        assert!(parse_point("east=1e2; north=25").is_err());
    }

    #[test]
    fn boxes() {
        assert!(
            parse_box("northlimit=28; eastlimit=97; southlimit=24; westlimit=88; name=NE India")
                .is_ok()
        );
        assert!(parse_box("northlimit=20; eastlimit=97; southlimit=24; westlimit=88").is_err());
        assert!(parse_box("northlimit=28; eastlimit=97; southlimit=24").is_err());
    }
}
