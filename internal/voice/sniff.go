package voice

import "bytes"

// Sniff reports whether data starts like audio of the given (normalised)
// type, so a renamed image or script is refused even with an audio
// Content-Type.
func Sniff(mime string, data []byte) bool {
	switch mime {
	case "audio/webm":
		return bytes.HasPrefix(data, []byte{0x1A, 0x45, 0xDF, 0xA3}) // EBML
	case "audio/ogg":
		return bytes.HasPrefix(data, []byte("OggS"))
	case "audio/mp4":
		return len(data) >= 12 && bytes.Equal(data[4:8], []byte("ftyp"))
	case "audio/mpeg":
		return bytes.HasPrefix(data, []byte("ID3")) || (len(data) >= 2 && data[0] == 0xFF && data[1]&0xE0 == 0xE0)
	case "audio/wav", "audio/x-wav", "audio/wave":
		return len(data) >= 12 && bytes.HasPrefix(data, []byte("RIFF")) && bytes.Equal(data[8:12], []byte("WAVE"))
	}
	return false
}
