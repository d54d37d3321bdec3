package inspect

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
)

//go:embed ui
var embedded embed.FS

// uiFiles are the page's script and style sheet.
var uiFiles, _ = fs.Sub(embedded, "ui")

// indexPage is the page; its files are linked with the token, which every
// request must carry.
var indexPage = template.Must(template.ParseFS(embedded, "ui/index.html"))

func (in *Inspector) index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	indexPage.Execute(w, struct{ Token, Target string }{in.token, in.cfg.Target})
}
