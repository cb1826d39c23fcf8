(let ((tc (read)))
  (dotimes (i tc)
    (format t "~a~%" (+ (read) (read)))))
