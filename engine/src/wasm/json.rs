//! A few lines of JSON writing: the engine has no serde, and the page only needs strings, integers, booleans,
//! arrays and objects, written straight into one `String` (no `format!`, which costs bytes in the wasm).

pub struct Json {
    pub out: String,
    /// Whether the container just opened still has no element (so no comma before the next one).
    fresh: bool,
}

impl Default for Json {
    fn default() -> Json {
        Json::new()
    }
}

impl Json {
    pub fn new() -> Json {
        Json {
            out: String::with_capacity(256),
            fresh: true,
        }
    }

    fn sep(&mut self) {
        if !self.fresh {
            self.out.push(',');
        }
        self.fresh = false;
    }

    pub fn open_obj(&mut self) -> &mut Self {
        self.sep();
        self.out.push('{');
        self.fresh = true;
        self
    }

    pub fn close_obj(&mut self) -> &mut Self {
        self.out.push('}');
        self.fresh = false;
        self
    }

    pub fn open_arr(&mut self) -> &mut Self {
        self.sep();
        self.out.push('[');
        self.fresh = true;
        self
    }

    pub fn close_arr(&mut self) -> &mut Self {
        self.out.push(']');
        self.fresh = false;
        self
    }

    /// An object key; the value written next belongs to it.
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.sep();
        quote(&mut self.out, k);
        self.out.push(':');
        self.fresh = true;
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Self {
        self.sep();
        quote(&mut self.out, s);
        self
    }

    pub fn opt_str(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.str(s),
            None => self.null(),
        }
    }

    pub fn int(&mut self, n: i64) -> &mut Self {
        self.sep();
        push_int(&mut self.out, n);
        self
    }

    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.sep();
        self.out.push_str(if b { "true" } else { "false" });
        self
    }

    pub fn null(&mut self) -> &mut Self {
        self.sep();
        self.out.push_str("null");
        self
    }

    /// A coordinate, written with three decimals at most: board geometry never needs more.
    pub fn num(&mut self, x: f64) -> &mut Self {
        self.sep();
        let x = if x.is_finite() { x } else { 0.0 };
        let milli = (x * 1000.0).round() as i64;
        if milli < 0 {
            self.out.push('-');
        }
        let a = milli.unsigned_abs();
        push_int(&mut self.out, (a / 1000) as i64);
        let frac = a % 1000;
        if frac != 0 {
            self.out.push('.');
            let digits = [frac / 100, frac / 10 % 10, frac % 10];
            let keep = if digits[2] != 0 {
                3
            } else if digits[1] != 0 {
                2
            } else {
                1
            };
            for d in &digits[..keep] {
                self.out.push((b'0' + *d as u8) as char);
            }
        }
        self
    }

    pub fn strs<'a>(&mut self, items: impl IntoIterator<Item = &'a str>) -> &mut Self {
        self.open_arr();
        for s in items {
            self.str(s);
        }
        self.close_arr()
    }

    pub fn finish(self) -> String {
        self.out
    }
}

pub fn push_int(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    let mut v = n.unsigned_abs();
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
}

/// A JSON string literal; `<` is escaped too, so a result can be inlined in a page's script element safely.
pub fn quote(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '<' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(HEX[(c as usize >> 4) & 15] as char);
                out.push(HEX[c as usize & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_nested_values() {
        let mut j = Json::new();
        j.open_obj();
        j.key("a").int(-12);
        j.key("b").strs(["x\"y", "<"]);
        j.key("c")
            .open_arr()
            .num(1.5)
            .num(-0.25)
            .num(3.0)
            .close_arr();
        j.key("d").null();
        j.close_obj();
        assert_eq!(
            j.finish(),
            r#"{"a":-12,"b":["x\"y","\u003c"],"c":[1.5,-0.25,3],"d":null}"#
        );
    }
}
