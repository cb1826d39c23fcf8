let () =
  let t = Scanf.scanf " %d" (fun x -> x) in
  for _ = 1 to t do
    Scanf.scanf " %d %d" (fun a b -> Printf.printf "%d\n" (a + b))
  done
