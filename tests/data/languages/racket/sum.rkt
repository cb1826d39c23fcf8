#lang racket/base
(define t (read))
(for ([i (in-range t)])
  (displayln (+ (read) (read))))
