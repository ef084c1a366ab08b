package importer

import (
	"bufio"
	"bytes"
	"io"
)

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

// skipDoctype drops the export's internal DTD subset (<!DOCTYPE HealthData
// [ … ]>), keeping its newlines so line numbers stay true. Hearth needs
// nothing from it, and the DTD of iOS 16 exports is malformed (an ATTLIST
// without its closing ">"), which makes encoding/xml read the whole file as
// one directive and fail at its end. Only a DOCTYPE before the root element
// and within the first buffer is touched.
func skipDoctype(br *bufio.Reader) io.Reader {
	head, _ := br.Peek(br.Size()) // a short file is all there
	start := bytes.Index(head, []byte("<!DOCTYPE"))
	if start < 0 || bytes.Contains(head[:start], []byte("<HealthData")) {
		return br
	}
	decl := head[start:]
	if gt := bytes.IndexByte(decl, '>'); gt < 0 || !bytes.Contains(decl[:gt], []byte("[")) {
		return br // no internal subset: encoding/xml reads it fine
	}
	n := bytes.Index(decl, []byte("]>"))
	if n < 0 {
		return br
	}
	end := start + n + 2
	out := make([]byte, 0, start+n)
	out = append(out, head[:start]...)
	out = append(out, bytes.Repeat([]byte("\n"), bytes.Count(head[start:end], []byte("\n")))...)
	_, _ = br.Discard(end)
	return io.MultiReader(bytes.NewReader(out), br)
}
