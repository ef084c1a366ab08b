package importer

import (
	"bytes"
	"fmt"
	"io"
)

// Limits against crafted files (a 204 KB zip holding 200 MiB of whitespace,
// a single 200 MiB attribute): the reader refuses them while reading, before
// the parser buffers what it is given, and nothing is stored.
const (
	// DefaultMaxBytes caps an import's uncompressed size
	// (HEARTH_IMPORT_MAX_BYTES). A decade of an iPhone's health data is a
	// few hundred MiB.
	DefaultMaxBytes int64 = 2 << 30
	// maxRatio is the highest compression ratio accepted once more than
	// ratioAfter bytes came out: Apple's XML compresses about 10-20:1.
	maxRatio   = 200
	ratioAfter = 10 << 20
	// maxToken caps one XML tag (with its attributes), text run, comment
	// or CDATA section, and one CSV line.
	maxToken = 1 << 20
)

// capReader refuses a stream that grows past max bytes or, once past
// ratioAfter bytes, past maxRatio times its compressed size (0: no ratio
// check, the bytes are not compressed).
type capReader struct {
	r          io.Reader
	n, max     int64
	compressed uint64
}

func (c *capReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > c.max:
		return n, Problem{Message: fmt.Sprintf("the file unpacks to more than %s, the import limit (HEARTH_IMPORT_MAX_BYTES); nothing was imported", sizeText(c.max))}
	case c.compressed > 0 && c.n > ratioAfter && uint64(c.n)/c.compressed > maxRatio:
		return n, Problem{Message: fmt.Sprintf("the zip unpacks more than %d times its size: it is not an export Hearth can read (a zip bomb?); nothing was imported", maxRatio)}
	}
	return n, err
}

func sizeText(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// xml states of tokenGuard.
const (
	inText = iota
	inTag
	inQuote
	inComment
	inCDATA
	inPI
)

// tokenGuard refuses XML with a token over maxToken bytes before
// encoding/xml buffers it: it follows tags (and their quoted attribute
// values), text runs, comments, CDATA sections and processing instructions
// and counts each one's length. The DOCTYPE's internal subset counts as one
// tag.
type tokenGuard struct {
	r     io.Reader
	state int
	quote byte
	depth int   // "[" nesting inside <!DOCTYPE
	run   int   // bytes of the current token
	off   int64 // bytes seen, for the message
	tail  []byte
}

func (g *tokenGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if n > 0 {
		if e := g.scan(p[:n]); e != nil {
			return n, e
		}
	}
	return n, err
}

func (g *tokenGuard) tooBig() error {
	return Problem{Message: fmt.Sprintf("an XML element, attribute or text of more than %d MiB (near byte %d): not an export Hearth can read; nothing was imported", maxToken>>20, g.off)}
}

// scan advances the state over b, jumping with bytes.IndexByte where it can.
func (g *tokenGuard) scan(b []byte) error {
	for i := 0; i < len(b); {
		switch g.state {
		case inText:
			j := bytes.IndexByte(b[i:], '<')
			if j < 0 {
				g.run += len(b) - i
				g.off += int64(len(b) - i)
				i = len(b)
				break
			}
			g.run, g.off, i = 0, g.off+int64(j+1), i+j+1
			g.state, g.tail, g.depth = inTag, g.tail[:0], 0
		case inQuote:
			j := bytes.IndexByte(b[i:], g.quote)
			if j < 0 {
				g.run += len(b) - i
				g.off += int64(len(b) - i)
				i = len(b)
				break
			}
			g.run, g.off, i = g.run+j+1, g.off+int64(j+1), i+j+1
			g.state = inTag
		case inTag:
			c := b[i]
			i++
			g.off++
			g.run++
			if g.tag(c) {
				break
			}
			switch c {
			case '"', '\'':
				if g.depth == 0 { // the DOCTYPE's subset counts as one token, quotes or not
					g.state, g.quote = inQuote, c
				}
			case '[':
				g.depth++
			case ']':
				g.depth--
			case '>':
				if g.depth <= 0 {
					g.state, g.run = inText, 0
				}
			}
		default: // a comment, CDATA section or PI: until its closing sequence
			c := b[i]
			i++
			g.off++
			g.run++
			g.tail = append(g.tail[max(0, len(g.tail)-2):], c)
			if bytes.HasSuffix(g.tail, closer[g.state]) {
				g.state, g.run = inText, 0
			}
		}
		if g.run > maxToken {
			return g.tooBig()
		}
	}
	return nil
}

// closer ends each of the states a tag can open.
var closer = map[int][]byte{inComment: []byte("-->"), inCDATA: []byte("]]>"), inPI: []byte("?>")}

// tag watches the first bytes after "<" for the openings of a comment, a
// CDATA section or a processing instruction, and reports whether c moved
// the state there.
func (g *tokenGuard) tag(c byte) bool {
	if len(g.tail) >= 8 {
		return false
	}
	g.tail = append(g.tail, c)
	switch string(g.tail) {
	case "!--":
		g.state = inComment
	case "![CDATA[":
		g.state = inCDATA
	case "?":
		g.state = inPI
	default:
		return false
	}
	g.tail = g.tail[:0]
	return true
}

// lineGuard refuses a CSV file with a line over maxToken bytes before
// encoding/csv buffers it.
type lineGuard struct {
	r   io.Reader
	run int
}

func (g *lineGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		j := bytes.IndexByte(b, '\n')
		if j < 0 {
			g.run += len(b)
			break
		}
		g.run, b = 0, b[j+1:]
	}
	if g.run > maxToken {
		return n, Problem{Message: fmt.Sprintf("a line of more than %d MiB: not a CSV file Hearth can read; nothing was imported", maxToken>>20)}
	}
	return n, err
}
