package importer

import "io"

// xmlCharFilter drops the C0 control characters XML 1.0 forbids (all below
// U+0020 except tab, newline and carriage return) from the bytes it passes
// on, and counts them. Apple Health exports have carried U+000B (a vertical
// tab typed into a metadata value) since iOS 16, which encoding/xml refuses
// with "illegal character code U+000B" and so loses the whole export. These
// bytes never occur inside a multi-byte UTF-8 sequence, so dropping them
// byte by byte is safe, and newlines (hence line numbers) are untouched.
type xmlCharFilter struct {
	r       io.Reader
	dropped int64
}

func (f *xmlCharFilter) Read(b []byte) (int, error) {
	for {
		n, err := f.r.Read(b)
		j := 0
		for i := 0; i < n; i++ {
			if c := b[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				f.dropped++
				continue
			}
			if j != i {
				b[j] = b[i]
			}
			j++
		}
		if j > 0 || err != nil || n == 0 {
			return j, err
		}
		// Everything read was dropped: read again rather than return 0, nil.
	}
}
