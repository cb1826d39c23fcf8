package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	r := bufio.NewReader(os.Stdin)
	var t int
	fmt.Fscan(r, &t)
	for i := 0; i < t; i++ {
		var a, b int64
		fmt.Fscan(r, &a, &b)
		fmt.Println(a + b)
	}
}
