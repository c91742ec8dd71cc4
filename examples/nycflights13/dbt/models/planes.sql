select * from {{ source('nycflights13', 'planes') }}
