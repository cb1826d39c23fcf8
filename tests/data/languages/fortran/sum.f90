program sum
  implicit none
  integer :: t, i
  integer(8) :: a, b
  read *, t
  do i = 1, t
    read *, a, b
    print '(I0)', a + b
  end do
end program sum
