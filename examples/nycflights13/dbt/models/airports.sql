select * from {{ source('nycflights13', 'airports') }}
