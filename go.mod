module github.com/gdvar/gdvar

go 1.26
