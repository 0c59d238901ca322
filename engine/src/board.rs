//! Boards of points joined by lines. A board is built by generators (a grid, triangles, a star) and explicit
//! points and lines; what play needs is derived from it once: the neighbours of each point and the rays (the
//! points met going straight out along a line), so move generation only reads tables.

/// At most this many points: positions are `u128` bitboards.
pub const MAX_POINTS: usize = 128;

#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The name used in notation (`c3`, `S2`).
    pub name: String,
    /// Drawing coordinates: x grows to the east, y to the north; grid points are one unit apart.
    pub x: f64,
    pub y: f64,
}

/// One of the eight compass directions a triangle can point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compass {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Compass {
    pub fn parse(word: &str) -> Option<Compass> {
        Some(match word {
            "north" => Compass::N,
            "north-east" => Compass::NE,
            "east" => Compass::E,
            "south-east" => Compass::SE,
            "south" => Compass::S,
            "south-west" => Compass::SW,
            "west" => Compass::W,
            "north-west" => Compass::NW,
            _ => return None,
        })
    }

    pub fn vector(self) -> (f64, f64) {
        match self {
            Compass::N => (0.0, 1.0),
            Compass::NE => (1.0, 1.0),
            Compass::E => (1.0, 0.0),
            Compass::SE => (1.0, -1.0),
            Compass::S => (0.0, -1.0),
            Compass::SW => (-1.0, -1.0),
            Compass::W => (-1.0, 0.0),
            Compass::NW => (-1.0, 1.0),
        }
    }

    /// The default name prefix of a triangle pointing this way.
    pub fn prefix(self) -> &'static str {
        match self {
            Compass::N => "N",
            Compass::NE => "NE",
            Compass::E => "E",
            Compass::SE => "SE",
            Compass::S => "S",
            Compass::SW => "SW",
            Compass::W => "W",
            Compass::NW => "NW",
        }
    }
}

/// Which diagonals a grid draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonals {
    None,
    /// The Alquerque pattern: diagonals only through the points whose file + rank is even.
    Alquerque,
    /// Both diagonals through every point.
    All,
}

/// Why the board refused a point or a shape, so that the rules compiler's help can say what to change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The name is a point's or a region's already.
    Name,
    /// Another point stands on the spot.
    Place,
    /// The board holds its most points.
    Full,
    /// The shape's own size is out of range (a grid's width, a triangle's rows).
    Shape,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub why: Refusal,
    pub message: String,
}

impl Refused {
    fn new(why: Refusal, message: impl Into<String>) -> Refused {
        Refused {
            why,
            message: message.into(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Board {
    pub points: Vec<Point>,
    /// Each line lists its points in order; consecutive points are neighbours.
    pub lines: Vec<Vec<u8>>,
    /// Named sets of points (bit i = point i). Triangles define one each (named by their prefix,
    /// apex excluded) and `triangles` is the union of all of them.
    pub regions: Vec<(String, u128)>,
}

fn file_letter(i: usize) -> char {
    (b'a' + i as u8) as char
}

impl Board {
    pub fn find(&self, name: &str) -> Option<u8> {
        // Replaying a record looks up two or three names a move on boards of up to 128 points: comparing the
        // length and first letter before the whole name spares a call to compare bytes for most points.
        let name = name.as_bytes();
        self.points
            .iter()
            .position(|p| {
                let candidate = p.name.as_bytes();
                candidate.len() == name.len()
                    && candidate.first() == name.first()
                    && candidate == name
            })
            .map(|i| i as u8)
    }

    pub fn region(&self, name: &str) -> Option<u128> {
        self.regions
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| *r)
    }

    pub fn add_point(&mut self, name: &str, x: f64, y: f64) -> Result<u8, Refused> {
        if self.find(name).is_some() {
            return Err(Refused::new(
                Refusal::Name,
                format!("a point named `{name}` already exists"),
            ));
        }
        // A region's name stands for its points wherever a point may be named: a point of the same name
        // would be hidden by it, whichever of the two is declared first.
        if self.region(name).is_some() {
            return Err(Refused::new(
                Refusal::Name,
                format!("`{name}` names a region; a point needs a name of its own"),
            ));
        }
        if let Some(p) = self
            .points
            .iter()
            .find(|p| (p.x - x).abs() < 1e-9 && (p.y - y).abs() < 1e-9)
        {
            return Err(Refused::new(
                Refusal::Place,
                format!(
                    "point `{}` already stands at {} {}",
                    p.name,
                    coordinate(x),
                    coordinate(y)
                ),
            ));
        }
        if self.points.len() >= MAX_POINTS {
            return Err(Refused::new(
                Refusal::Full,
                format!("a board has at most {MAX_POINTS} points"),
            ));
        }
        self.points.push(Point {
            name: name.to_string(),
            x,
            y,
        });
        Ok((self.points.len() - 1) as u8)
    }

    pub fn add_region(&mut self, name: &str, set: u128) {
        if let Some(r) = self.regions.iter_mut().find(|(n, _)| n == name) {
            r.1 |= set;
        } else {
            self.regions.push((name.to_string(), set));
        }
    }

    /// An `width` x `height` grid named like a chess board: files `a`, `b`, ... from the west, ranks `1`, `2`,
    /// ... from the south; point `a1` stands at (0, 0).
    pub fn grid(
        &mut self,
        width: usize,
        height: usize,
        diagonals: Diagonals,
    ) -> Result<(), Refused> {
        if !(2..=23).contains(&width) || !(2..=26).contains(&height) {
            return Err(Refused::new(
                Refusal::Shape,
                "a grid is 2 to 23 points wide (files a to w, so no file is named x) and 2 to 26 high",
            ));
        }
        let mut id = vec![vec![0u8; height]; width];
        for (x, col) in id.iter_mut().enumerate() {
            for (y, cell) in col.iter_mut().enumerate() {
                *cell =
                    self.add_point(&format!("{}{}", file_letter(x), y + 1), x as f64, y as f64)?;
            }
        }
        for col in &id {
            self.lines.push(col.clone());
        }
        for y in 0..height {
            self.lines.push(id.iter().map(|col| col[y]).collect());
        }
        if diagonals != Diagonals::None {
            let on = |x: usize, y: usize| diagonals == Diagonals::All || (x + y) % 2 == 0;
            // Walk every diagonal of both slopes from its first point, cutting it wherever a point is not on the
            // pattern, so each maximal run becomes one line.
            for (dx, starts) in [(1i64, true), (-1, false)] {
                let mut origins = Vec::new();
                for x in 0..width {
                    origins.push((x as i64, 0i64));
                }
                for y in 1..height {
                    origins.push((if starts { 0 } else { width as i64 - 1 }, y as i64));
                }
                for (mut x, mut y) in origins {
                    let mut run: Vec<u8> = Vec::new();
                    while x >= 0 && (x as usize) < width && (y as usize) < height {
                        if on(x as usize, y as usize) {
                            run.push(id[x as usize][y as usize]);
                        } else {
                            if run.len() > 1 {
                                self.lines.push(std::mem::take(&mut run));
                            }
                            run.clear();
                        }
                        x += dx;
                        y += 1;
                    }
                    if run.len() > 1 {
                        self.lines.push(run);
                    }
                }
            }
        }
        Ok(())
    }

    /// A triangle with its apex on an existing point, opening away from the board towards `toward`, with `depth`
    /// rows of three points (the middle row point on the line from the apex, the two others on the triangle's
    /// sides). Its points are named `PREFIX1`, `PREFIX2`, ... row by row from the apex, and within a row from
    /// west to east (from south to north when the triangle points east or west).
    pub fn triangle(
        &mut self,
        apex: u8,
        toward: Compass,
        depth: usize,
        prefix: &str,
    ) -> Result<(), Refused> {
        if !(1..=4).contains(&depth) {
            return Err(Refused::new(Refusal::Shape, "a triangle has 1 to 4 rows"));
        }
        let (dx, dy) = toward.vector();
        let diagonal = dx != 0.0 && dy != 0.0;
        // Corner triangles are drawn smaller, so that they stay clear of the side triangles next to them.
        let (step, spread) = if diagonal { (0.75, 0.375) } else { (1.0, 1.0) };
        let (px, py) = (-dy, dx);
        let (ax, ay) = (self.points[apex as usize].x, self.points[apex as usize].y);
        // The region is the triangle's own points; the apex belongs to the board it is attached to.
        let mut region = 0u128;
        let mut rows: Vec<[u8; 3]> = Vec::new();
        let mut n = 1;
        for k in 1..=depth {
            let k = k as f64;
            let (cx, cy) = (ax + dx * step * k, ay + dy * step * k);
            let mut row = [
                (cx - px * spread * k, cy - py * spread * k),
                (cx, cy),
                (cx + px * spread * k, cy + py * spread * k),
            ];
            row.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            let mut ids = [0u8; 3];
            for (slot, (x, y)) in ids.iter_mut().zip(row) {
                *slot = self.add_point(&format!("{prefix}{n}"), x, y)?;
                region |= 1u128 << *slot;
                n += 1;
            }
            rows.push(ids);
        }
        // Rows were sorted by position, so find which of each row's points is the middle one again.
        let middle = |row: &[u8; 3], b: &Board| -> usize {
            (0..3)
                .min_by(|&i, &j| {
                    let d = |i: usize| {
                        let p = &b.points[row[i] as usize];
                        ((p.x - ax) * px + (p.y - ay) * py).abs()
                    };
                    d(i).total_cmp(&d(j))
                })
                .unwrap_or(1)
        };
        let mids: Vec<usize> = rows.iter().map(|r| middle(r, self)).collect();
        let mut centre = vec![apex];
        let mut left = vec![apex];
        let mut right = vec![apex];
        for (row, &m) in rows.iter().zip(&mids) {
            let others: Vec<u8> = (0..3).filter(|&i| i != m).map(|i| row[i]).collect();
            centre.push(row[m]);
            left.push(others[0]);
            right.push(others[1]);
            self.lines.push(row.to_vec());
        }
        self.lines.push(centre);
        self.lines.push(left);
        self.lines.push(right);
        self.add_region(prefix, region);
        self.add_region("triangles", region);
        Ok(())
    }

    /// A five-pointed star (Kaooa): five outer points `PREFIX1`..`PREFIX5` and five inner crossings
    /// `PREFIX6`..`PREFIX10`, on five lines of four points each.
    pub fn star(&mut self, prefix: &str) -> Result<(), Refused> {
        let tau = std::f64::consts::TAU;
        let outer: Vec<(f64, f64)> = (0..5)
            .map(|i| {
                let a = tau / 4.0 + tau * i as f64 / 5.0;
                (2.0 * a.cos(), 2.0 * a.sin())
            })
            .collect();
        let mut ids = Vec::new();
        for (i, (x, y)) in outer.iter().enumerate() {
            ids.push(self.add_point(&format!("{prefix}{}", i + 1), *x, *y)?);
        }
        // The inner points are where the chords (outer i to outer i+2) cross one another.
        let chord = |i: usize| (outer[i], outer[(i + 2) % 5]);
        let mut inner: Vec<(f64, f64)> = Vec::new();
        for i in 0..5 {
            for j in i + 1..5 {
                let ((x1, y1), (x2, y2)) = chord(i);
                let ((x3, y3), (x4, y4)) = chord(j);
                let den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4);
                if den.abs() < 1e-12 {
                    continue;
                }
                let t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den;
                let u = -((x1 - x2) * (y1 - y3) - (y1 - y2) * (x1 - x3)) / den;
                if t > 1e-9 && t < 1.0 - 1e-9 && u > 1e-9 && u < 1.0 - 1e-9 {
                    inner.push((x1 + t * (x2 - x1), y1 + t * (y2 - y1)));
                }
            }
        }
        for (i, (x, y)) in inner.iter().enumerate() {
            ids.push(self.add_point(&format!("{prefix}{}", i + 6), *x, *y)?);
        }
        for i in 0..5 {
            let ((ax, ay), (bx, by)) = chord(i);
            let mut on: Vec<(f64, u8)> = inner
                .iter()
                .zip(&ids[5..])
                .filter(|((x, y), _)| ((bx - ax) * (y - ay) - (by - ay) * (x - ax)).abs() < 1e-6)
                .map(|((x, y), id)| ((x - ax).powi(2) + (y - ay).powi(2), *id))
                .collect();
            on.sort_by(|p, q| p.0.total_cmp(&q.0));
            let mut line = vec![ids[i]];
            line.extend(on.iter().map(|(_, id)| *id));
            line.push(ids[(i + 2) % 5]);
            self.lines.push(line);
        }
        Ok(())
    }

    pub fn add_line(&mut self, points: Vec<u8>) {
        self.lines.push(points);
    }

    /// Neighbour lists, point by point, in a stable order.
    pub fn neighbours(&self) -> Vec<Vec<u8>> {
        let mut n = vec![Vec::new(); self.points.len()];
        for line in &self.lines {
            for w in line.windows(2) {
                let (a, b) = (w[0], w[1]);
                if !n[a as usize].contains(&b) {
                    n[a as usize].push(b);
                }
                if !n[b as usize].contains(&a) {
                    n[b as usize].push(a);
                }
            }
        }
        n
    }

    fn unit(&self, a: u8, b: u8) -> (f64, f64) {
        let (pa, pb) = (&self.points[a as usize], &self.points[b as usize]);
        let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
        let len = (dx * dx + dy * dy).sqrt().max(1e-12);
        (dx / len, dy / len)
    }

    /// Every ray of every point: going from the point to one neighbour and on along the same line. A line
    /// continues into another line that carries on straight from its end point (a grid column into a triangle's
    /// middle line), which is how jumps cross from the board into a triangle.
    pub fn rays(&self) -> Vec<Vec<Vec<u8>>> {
        let neighbours = self.neighbours();
        // The point after (p, q) on a declared line, by p * n + q; NO_NEXT where none. A flat table rather
        // than a hash map keeps the page's engine small (boards have at most 128 points).
        const NO_NEXT: u8 = u8::MAX;
        let n = self.points.len();
        let mut next_on_line = vec![NO_NEXT; n * n];
        for line in &self.lines {
            for w in line.windows(3) {
                next_on_line[w[0] as usize * n + w[1] as usize] = w[2];
                next_on_line[w[2] as usize * n + w[1] as usize] = w[0];
            }
        }
        let cont = |p: u8, q: u8| -> Option<u8> {
            let r = next_on_line[p as usize * n + q as usize];
            if r != NO_NEXT {
                return Some(r);
            }
            let d = self.unit(p, q);
            neighbours[q as usize].iter().copied().find(|&r| {
                let e = self.unit(q, r);
                r != p && (d.0 - e.0).abs() < 1e-6 && (d.1 - e.1).abs() < 1e-6
            })
        };
        (0..self.points.len() as u8)
            .map(|p| {
                neighbours[p as usize]
                    .iter()
                    .map(|&q| {
                        let mut ray = vec![q];
                        let (mut a, mut b) = (p, q);
                        while let Some(c) = cont(a, b) {
                            if c == p || ray.contains(&c) {
                                break;
                            }
                            ray.push(c);
                            a = b;
                            b = c;
                        }
                        ray
                    })
                    .collect()
            })
            .collect()
    }

    /// The unit vector from point `a` to point `b`, for direction limits.
    pub fn direction(&self, a: u8, b: u8) -> (f64, f64) {
        self.unit(a, b)
    }
}

/// A coordinate as written in a rules file, to three decimals at most. Integer formatting only: the float
/// formatter would add some 11 KB to the page's engine for this one message.
fn coordinate(x: f64) -> String {
    let milli = (x * 1000.0).round() as i64;
    let sign = if milli < 0 { "-" } else { "" };
    let a = milli.unsigned_abs();
    let text = format!("{sign}{}.{:03}", a / 1000, a % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_on_another_is_reported_with_its_coordinates() {
        let mut b = Board::default();
        b.add_point("p", -0.5, 10.0).unwrap();
        assert_eq!(
            b.add_point("q", -0.5, 10.0).map_err(|r| r.message),
            Err("point `p` already stands at -0.5 10".to_string())
        );
        let shown: Vec<String> = [0.0, 1.25, -2.0, 0.0004, 100.1]
            .iter()
            .map(|&x| coordinate(x))
            .collect();
        assert_eq!(shown, ["0", "1.25", "-2", "0", "100.1"]);
    }

    #[test]
    fn alquerque_grid_has_the_classic_pattern() {
        let mut b = Board::default();
        b.grid(5, 5, Diagonals::Alquerque).unwrap();
        let n = b.neighbours();
        let c3 = b.find("c3").unwrap() as usize;
        let b3 = b.find("b3").unwrap() as usize;
        assert_eq!(n[c3].len(), 8);
        assert_eq!(n[b3].len(), 4);
        // 40 orthogonal segments + 16 diagonal segments
        let segs: usize = n.iter().map(|v| v.len()).sum::<usize>() / 2;
        assert_eq!(segs, 56);
    }

    #[test]
    fn eight_triangles_make_73_points_and_join_lines() {
        let mut b = Board::default();
        b.grid(5, 5, Diagonals::Alquerque).unwrap();
        for (apex, dir) in [
            ("c5", "north"),
            ("e5", "north-east"),
            ("e3", "east"),
            ("e1", "south-east"),
            ("c1", "south"),
            ("a1", "south-west"),
            ("a3", "west"),
            ("a5", "north-west"),
        ] {
            let d = Compass::parse(dir).unwrap();
            b.triangle(b.find(apex).unwrap(), d, 2, d.prefix()).unwrap();
        }
        assert_eq!(b.points.len(), 73);
        let rays = b.rays();
        let c2 = b.find("c2").unwrap();
        let s2 = b.find("S2").unwrap();
        // going south from c2 the column runs on into the triangle's middle line
        let down = rays[c2 as usize]
            .iter()
            .find(|r| r[0] == b.find("c1").unwrap())
            .unwrap();
        assert_eq!(
            down,
            &vec![b.find("c1").unwrap(), s2, b.find("S5").unwrap()]
        );
    }

    #[test]
    fn star_has_ten_points_on_five_lines() {
        let mut b = Board::default();
        b.star("k").unwrap();
        assert_eq!(b.points.len(), 10);
        assert!(b.lines.iter().all(|l| l.len() == 4));
    }
}
