#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ludotheca_fuzz::import_omeka_s(data));
