package limit

import (
	"bufio"
	"bytes"
	"io"
)

// Serve answers the messages read from r, one per line, with replies
// written to w, one per line, until r ends (nil) or fails. Replies are
// buffered while more input is already waiting and flushed before Serve
// waits for input again, so pipelined requests share writes.
func Serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	bw := bufio.NewWriterSize(w, 64<<10)
	var long []byte // a line longer than br's buffer, gathered
	for {
		msg, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, msg...)
			continue
		}
		if long != nil {
			msg = append(long, msg...)
			long = nil
		}
		if msg = bytes.TrimSpace(msg); len(msg) > 0 {
			out, kind := Handle(bw.AvailableBuffer(), msg)
			if kind != Notification {
				if _, werr := bw.Write(append(out, '\n')); werr != nil {
					return werr
				}
			}
		}
		if br.Buffered() == 0 || err != nil {
			if ferr := bw.Flush(); ferr != nil {
				return ferr
			}
		}
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
}
